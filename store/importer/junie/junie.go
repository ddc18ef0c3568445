// Package junie imports JetBrains Junie CLI sessions.
//
// Junie keeps ~/.junie/sessions/<session-YYMMDD-HHMMSS-xxxx>/events.jsonl and
// an index of the sessions in ~/.junie/sessions/index.jsonl ({sessionId,
// createdAt, updatedAt (ms), taskName, status}). Junie is closed source; the
// shapes are from a public Junie session reader (Haehnchen/idea-de-espend-ml-llm
// JUNIE_SESSION_ADAPTER.md and JunieSessionParser.kt). An events.jsonl line is
// {"kind": "UserPromptEvent", "prompt"} or {"kind": "SessionA2uxEvent",
// "event": {"state", "agentEvent": {"kind", ...}}}; a step's block is written
// IN_PROGRESS and again COMPLETED under one stepId: each step keeps its last
// version, in the order the steps began. The file is appended to and read
// incrementally; when a step stored by an earlier import is written again,
// the file is read again in full and the step's row replaced. Events carry
// no times: messages get the session's start.
package junie

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer"
	"github.com/recall-dev/recall/store/importer/internal/textutil"
)

// SourceName is the session source of imported Junie sessions.
const SourceName = "junie"

func init() { importer.Register(&Source{}) }

// Source imports Junie sessions. Its zero value is ready.
type Source struct{}

// Name is "junie".
func (*Source) Name() string { return SourceName }

// DefaultPaths is ~/.junie/sessions.
func (*Source) DefaultPaths() []string {
	home := importer.HomeDir("", ".junie")
	if home == "" {
		return nil
	}
	return []string{filepath.Join(home, "sessions")}
}

// Discover finds each session's events.jsonl.
func (*Source) Discover(paths []string) ([]string, error) {
	var found []string
	named, err := importer.FindFiles(paths, importer.Subfolder("sessions"), map[string]bool{".matterhorn": true}, func(path, name string) {
		if name == "events.jsonl" {
			found = append(found, path)
		}
	})
	sort.Strings(found)
	return append(named, found...), err
}

// indexEntry is one line of sessions/index.jsonl.
type indexEntry struct {
	SessionID string `json:"sessionId"`
	CreatedAt int64  `json:"createdAt"`
	UpdatedAt int64  `json:"updatedAt"`
	TaskName  string `json:"taskName"`
}

// readIndex finds a session's line in index.jsonl (the last one wins).
func readIndex(path, id string) indexEntry {
	var out indexEntry
	f, err := os.Open(path)
	if err != nil {
		return out
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	for sc.Scan() {
		var e indexEntry
		if json.Unmarshal(sc.Bytes(), &e) == nil && e.SessionID == id {
			out = e
		}
	}
	return out
}

// Import reads one session's events.jsonl again in full.
func (*Source) Import(ctx context.Context, st *store.Store, file string) (importer.Report, error) {
	dir := filepath.Dir(file)
	id := filepath.Base(dir)
	ix := readIndex(filepath.Join(filepath.Dir(dir), "index.jsonl"), id)
	sess := store.Session{ID: id, Source: SourceName, Title: textutil.Title(ix.TaskName)}
	if ix.CreatedAt > 0 {
		sess.StartedAt = time.UnixMilli(ix.CreatedAt).UTC()
	}
	if ix.UpdatedAt > 0 {
		sess.EndedAt = time.UnixMilli(ix.UpdatedAt).UTC()
	}
	if sess.StartedAt.IsZero() {
		if fi, err := os.Stat(file); err == nil {
			sess.StartedAt = fi.ModTime().UTC() // no index line: the file's time
		}
	}
	return importer.ImportLines(ctx, st, SourceName, file, func() importer.LineParser { return newParser(sess) })
}
