package secrets

import (
	_ "embed"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"

	ahocorasick "github.com/BobuSumisu/aho-corasick"
	"github.com/rs/zerolog"
	"github.com/spf13/viper"
	"github.com/zricethezav/gitleaks/v8/config"
	"github.com/zricethezav/gitleaks/v8/detect"
	"github.com/zricethezav/gitleaks/v8/logging"
)

// additions is gitleaks' default config extended with recall's additions.
//
//go:embed additions.toml
var additions string

var (
	loadOnce sync.Once
	rules    *ruleSet
	loadErr  error
)

// ruleSet is gitleaks' detector with its keywords as a trie of their own:
// a text holding none of them cannot match any rule (gitleaks' own
// prefilter), and most texts hold none, so they cost one scan and no call.
type ruleSet struct {
	d        *detect.Detector // read-only once loaded: DetectString keeps no state
	keywords *ahocorasick.Trie
}

// Load reads the rules once (they are compiled in: about 30 ms); every
// redaction calls it. Its error means a broken build, never bad input.
func Load() error {
	loadOnce.Do(func() { rules, loadErr = loadRules() })
	return loadErr
}

// Preload loads the rules in the background, so the first answer does not wait.
func Preload() { go func() { _ = Load() }() }

func loadRules() (*ruleSet, error) {
	// gitleaks logs findings and warnings to stderr; recall's stderr is
	// for its own one-line messages (and an MCP client's log).
	logging.Logger = zerolog.Nop()
	v := viper.New()
	v.SetConfigType("toml")
	if err := v.ReadConfig(strings.NewReader(additions)); err != nil {
		return nil, fmt.Errorf("read secret rules: %w", err)
	}
	var vc config.ViperConfig
	if err := v.Unmarshal(&vc); err != nil {
		return nil, fmt.Errorf("read secret rules: %w", err)
	}
	cfg, err := vc.Translate()
	if err != nil {
		return nil, fmt.Errorf("load gitleaks rules: %w", err)
	}
	words := make([]string, 0, len(cfg.Keywords))
	for k := range cfg.Keywords {
		words = append(words, k)
	}
	return &ruleSet{d: detect.NewDetector(cfg), keywords: ahocorasick.NewTrieBuilder().AddStrings(words).Build()}, nil
}

// mayHold reports whether s holds any rule's keyword, compared as gitleaks
// compares them (lower case).
func (rs *ruleSet) mayHold(s string) bool {
	return rs.keywords.MatchFirstString(lower(s)) != nil
}

// lower is strings.ToLower, as gitleaks lowers a text before its keyword
// scan, without a copy for text already in lower case.
func lower(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'A' && c <= 'Z' || c >= 0x80 {
			return strings.ToLower(s)
		}
	}
	return s
}

// finding is one secret a rule found: its text and the rule's id.
type finding struct {
	secret, rule string
}

// scanned counts the bytes of text the rules were run on (ScannedBytes).
var scanned atomic.Int64

// ScannedBytes is how many bytes of text the rules have been run on since
// the process started: the texts that held a keyword and were not
// remembered (benchmarks divide the cost of redaction by it).
func ScannedBytes() int64 { return scanned.Load() }

// detect runs every rule whose keyword s holds.
func (rs *ruleSet) detect(s string) []finding {
	if !rs.mayHold(s) {
		return nil
	}
	scanned.Add(int64(len(s)))
	var out []finding
	for _, f := range rs.d.DetectString(s) {
		if len(f.Secret) >= minSecret {
			out = append(out, finding{secret: f.Secret, rule: f.RuleID})
		}
	}
	return out
}

// minSecret: shorter "secrets" are rule noise (and would blank ordinary
// words wherever they recur).
const minSecret = 6
