// Package secrets redacts API keys, tokens and passwords from text recall
// hands to a model or writes out for sharing. Transcripts hold the secrets
// the agents printed (an `export OPENAI_API_KEY=...`, a .env read back);
// the rules are gitleaks' own (github.com/zricethezav/gitleaks/v8, its
// default config: a maintained set of a few hundred provider rules with
// keyword prefilters and entropy checks), not patterns written here.
package secrets

import (
	"fmt"
	"reflect"
	"sort"
	"strings"
	"sync"

	"github.com/rs/zerolog"
	"github.com/zricethezav/gitleaks/v8/detect"
	"github.com/zricethezav/gitleaks/v8/logging"
)

var (
	loadOnce sync.Once
	detector *detect.Detector // read-only once loaded: DetectString keeps no state
	loadErr  error
)

// load reads gitleaks' default rules once (they are compiled into it).
func load() {
	// gitleaks logs findings and warnings to stderr; recall's stderr is
	// for its own one-line messages (and an MCP client's log).
	logging.Logger = zerolog.Nop()
	d, err := detect.NewDetectorDefaultConfig()
	if err != nil {
		loadErr = fmt.Errorf("load gitleaks rules: %w", err)
		return
	}
	detector = d
}

// Redactor redacts one answer and counts what it replaced. It is not safe
// for concurrent use (the count); the rules it shares are.
type Redactor struct {
	d *detect.Detector
	// Found counts the secrets replaced.
	Found int
}

// New returns a Redactor with gitleaks' default rules (read and compiled
// on the first call, about 25 ms).
func New() (*Redactor, error) {
	loadOnce.Do(load)
	if loadErr != nil {
		return nil, loadErr
	}
	return &Redactor{d: detector}, nil
}

// Mark is what a secret is replaced with: the rule that found it, so a
// reader knows what was there ("[REDACTED:github-pat]").
func Mark(rule string) string { return "[REDACTED:" + rule + "]" }

// minLen: shorter text holds no secret any rule finds.
const minLen = 8

// String returns s with every secret found replaced by Mark(rule).
func (r *Redactor) String(s string) string {
	if len(s) < minLen {
		return s
	}
	findings := r.d.DetectString(s)
	if len(findings) == 0 {
		return s
	}
	// Longest first, so a secret that contains another is replaced whole.
	sort.SliceStable(findings, func(i, j int) bool { return len(findings[i].Secret) > len(findings[j].Secret) })
	for _, f := range findings {
		if len(f.Secret) < minLen || !strings.Contains(s, f.Secret) {
			continue
		}
		r.Found += strings.Count(s, f.Secret)
		s = strings.ReplaceAll(s, f.Secret, Mark(f.RuleID))
	}
	return s
}

// Walk redacts, in place, every string reachable from v (a pointer to a
// struct of strings, slices, maps of strings, pointers): an answer's
// envelope, whatever its shape.
func (r *Redactor) Walk(v any) {
	r.walk(reflect.ValueOf(v))
}

func (r *Redactor) walk(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			r.walk(v.Elem())
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				r.walk(v.Field(i))
			}
		}
	case reflect.Slice, reflect.Array:
		for i := 0; i < v.Len(); i++ {
			r.walk(v.Index(i))
		}
	case reflect.Map:
		for _, k := range v.MapKeys() {
			e := v.MapIndex(k)
			if e.Kind() == reflect.String {
				if s := r.String(e.String()); s != e.String() {
					v.SetMapIndex(k, reflect.ValueOf(s).Convert(e.Type()))
				}
				continue
			}
			r.walk(e) // not addressable: only pointers inside are redacted
		}
	case reflect.String:
		if v.CanSet() {
			if s := r.String(v.String()); s != v.String() {
				v.SetString(s)
			}
		}
	}
}
