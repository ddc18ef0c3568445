// Package codex imports Codex CLI rollouts:
// ${CODEX_HOME:-~/.codex}/sessions/YYYY/MM/DD/rollout-*.jsonl, their
// zstd-compressed .jsonl.zst form (the plain file wins when both exist),
// archived_sessions/, and the older single-document rollout-*.json.
//
// The user's words come from event_msg user_message (response_item user
// messages also carry injected AGENTS.md and <environment_context> text,
// which is dropped); the same text arriving as both a response_item and an
// event_msg is stored once. Function calls become assistant tool calls and
// their outputs role "tool" messages; forks and sub-agent threads become
// child sessions.
package codex

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/klauspost/compress/zstd"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer"
	"github.com/recall-dev/recall/store/importer/internal/lines"
	"github.com/recall-dev/recall/store/importer/internal/textutil"
)

// SourceName is the session source of imported Codex sessions.
const SourceName = "codex"

func init() { importer.Register(&Source{}) }

// Source imports Codex CLI rollouts. Its zero value is ready; it remembers
// the Codex homes and sessions of one run for Finish.
type Source struct {
	mu       sync.Mutex
	homes    map[string]bool // $CODEX_HOME folders the imported files live in
	imported map[string]bool // sessions imported in this run
}

// Name is "codex".
func (*Source) Name() string { return SourceName }

// Home is ${CODEX_HOME:-~/.codex}.
func Home() string {
	return importer.HomeDir("CODEX_HOME", ".codex")
}

// DefaultPaths are the live and archived session folders.
func (*Source) DefaultPaths() []string {
	h := Home()
	if h == "" {
		return nil
	}
	return []string{filepath.Join(h, "sessions"), filepath.Join(h, "archived_sessions")}
}

// Discover finds rollouts under paths (CODEX_HOME, its sessions or
// archived_sessions folder, any folder below, or single files), dropping a
// .jsonl.zst whose plain .jsonl exists, oldest first (so fork parents
// usually precede forks).
func (*Source) Discover(paths []string) ([]string, error) { return DiscoverRollouts(paths) }

// DiscoverRollouts is Discover for any agent that keeps Codex's layout (a
// home with sessions/ and archived_sessions/ of rollout-*.jsonl): Codex and
// its forks.
func DiscoverRollouts(paths []string) ([]string, error) {
	roots := func(dir string) []string {
		if sub := []string{filepath.Join(dir, "sessions"), filepath.Join(dir, "archived_sessions")}; importer.IsDir(sub[0]) || importer.IsDir(sub[1]) {
			return sub // a CODEX_HOME: not its history.jsonl, logs or caches
		}
		return []string{dir}
	}
	var walked []string
	out, err := importer.FindFiles(paths, roots, nil, func(path, n string) {
		if strings.HasPrefix(n, "rollout-") && (strings.HasSuffix(n, ".jsonl") || strings.HasSuffix(n, ".jsonl.zst") || strings.HasSuffix(n, ".json")) {
			walked = append(walked, path)
		}
	})
	if err != nil {
		return nil, err
	}
	out = append(out, walked...)
	have := map[string]bool{}
	for _, p := range out {
		have[p] = true
	}
	kept := out[:0]
	for _, p := range out {
		if strings.HasSuffix(p, ".jsonl.zst") && have[strings.TrimSuffix(p, ".zst")] {
			continue
		}
		kept = append(kept, p)
	}
	sort.Strings(kept)
	return kept, nil
}

// Import brings one rollout up to date.
func (s *Source) Import(ctx context.Context, st *store.Store, file string) (importer.Report, error) {
	rep, last, err := importRollout(ctx, st, SourceName, file)
	if err != nil {
		return rep, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.homes == nil {
		s.homes, s.imported = map[string]bool{}, map[string]bool{}
	}
	if h := homeOf(file); h != "" {
		s.homes[h] = true
	}
	if last != nil && last.st.Session.ID != "" && rep.Files > 0 {
		s.imported[last.st.Session.ID] = true
	}
	return rep, nil
}

// ImportRollout brings one rollout of an agent that writes Codex's rollouts
// (a fork of codex-rs) up to date as a session of source, read line by line
// exactly as the codex source reads Codex's.
func ImportRollout(ctx context.Context, st *store.Store, source, file string) (importer.Report, error) {
	rep, _, err := importRollout(ctx, st, source, file)
	return rep, err
}

func importRollout(ctx context.Context, st *store.Store, source, file string) (importer.Report, *parser, error) {
	var last *parser
	np := func() importer.LineParser {
		last = newParser(file, source)
		return last
	}
	var rep importer.Report
	var err error
	switch {
	case strings.HasSuffix(file, ".zst"):
		rep, err = importer.ImportWhole(ctx, st, source, file, func() (io.ReadCloser, error) { return openZstd(file) }, np)
	case strings.HasSuffix(file, ".json"):
		rep, err = importer.ImportWhole(ctx, st, source, file, func() (io.ReadCloser, error) { return openLegacy(file) }, np)
	default:
		rep, err = importer.ImportLines(ctx, st, source, file, np)
	}
	return rep, last, err
}

// homeOf is the CODEX_HOME holding a rollout (the parent of its sessions
// or archived_sessions folder), else "".
func homeOf(file string) string {
	for d := filepath.Dir(file); d != filepath.Dir(d); d = filepath.Dir(d) {
		if b := filepath.Base(d); b == "sessions" || b == "archived_sessions" {
			return filepath.Dir(d)
		}
	}
	return ""
}

// Finish names sessions from session_index.jsonl ({id, thread_name,
// updated_at}, the newest line per id wins) in each Codex home seen: all of
// them when the index changed since the last run, else the sessions this
// run imported (their rollouts may carry an older name).
func (s *Source) Finish(ctx context.Context, st *store.Store) (importer.Report, error) {
	s.mu.Lock()
	homes, imported := s.homes, s.imported
	s.homes, s.imported = nil, nil
	s.mu.Unlock()
	var rep importer.Report
	var sorted []string
	for h := range homes {
		sorted = append(sorted, h)
	}
	sort.Strings(sorted)
	for _, h := range sorted {
		r, err := applyIndex(ctx, st, filepath.Join(h, "session_index.jsonl"), imported)
		rep.Add(r)
		if err != nil {
			return rep, err
		}
	}
	return rep, nil
}

func applyIndex(ctx context.Context, st *store.Store, path string, imported map[string]bool) (importer.Report, error) {
	var rep importer.Report
	fi, err := os.Stat(path)
	if err != nil {
		return rep, nil // no index (older Codex)
	}
	changed := true
	if err := st.Write(ctx, func(tx *store.Tx) error {
		prev, ok, err := tx.ImportFile(path)
		changed = err == nil && (!ok || prev.Size != fi.Size() || !importer.SameModTime(prev.ModTime, fi.ModTime()))
		return err
	}); err != nil {
		return rep, err
	}
	if !changed && len(imported) == 0 {
		return rep, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return rep, nil
	}
	defer f.Close()
	names := map[string]string{}
	newest := map[string]string{}
	lr := importer.NewLineReader(f, 0, 0)
	for lr.Next() {
		l := lr.Line() // a too-long line has no text: it fails to decode and is skipped
		var e struct {
			ID         string `json:"id"`
			ThreadName string `json:"thread_name"`
			UpdatedAt  string `json:"updated_at"`
		}
		if lines.Blank(l.Text) || json.Unmarshal(l.Text, &e) != nil || e.ID == "" {
			continue
		}
		if e.UpdatedAt >= newest[e.ID] {
			newest[e.ID], names[e.ID] = e.UpdatedAt, e.ThreadName
		}
	}
	ids := make([]string, 0, len(names))
	for id := range names {
		if changed || imported[id] {
			ids = append(ids, id)
		}
	}
	sort.Strings(ids)
	for _, id := range ids {
		title := textutil.Title(names[id])
		sess, err := st.SessionOf(ctx, SourceName, id)
		if err != nil || title == "" || sess.Title == title {
			continue // not imported (yet), or already so named
		}
		sess.Title = title
		if err := st.Write(ctx, func(tx *store.Tx) error { return tx.UpdateSession(sess) }); err != nil {
			return rep, fmt.Errorf("name session %s: %w", id, err)
		}
		rep.Sessions++
	}
	err = st.Write(ctx, func(tx *store.Tx) error {
		return tx.SetImportFile(store.ImportFile{Path: path, Source: SourceName, Size: fi.Size(), ModTime: fi.ModTime()})
	})
	return rep, err
}

type zstdFile struct {
	*zstd.Decoder
	f *os.File
}

func (z zstdFile) Close() error {
	z.Decoder.Close()
	return z.f.Close()
}

func openZstd(path string) (io.ReadCloser, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	d, err := zstd.NewReader(f, zstd.WithDecoderConcurrency(1))
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("open zstd %s: %w", path, err)
	}
	return zstdFile{Decoder: d, f: f}, nil
}

// openLegacy converts a single-document rollout ({session, items}) into
// rollout lines.
func openLegacy(path string) (io.ReadCloser, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	var doc struct {
		Session struct {
			ID        string `json:"id"`
			Timestamp string `json:"timestamp"`
			Cwd       string `json:"cwd"`
		} `json:"session"`
		Items *[]json.RawMessage `json:"items"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		return nil, fmt.Errorf("parse %s: %s", path, importer.DecodeProblem(err))
	}
	if doc.Items == nil {
		// Another JSON document (a Gemini CLI session, a config file): not
		// one empty session named after the file.
		return nil, fmt.Errorf("%s: not a Codex rollout: %s", path, importer.MissingField("the document", "items", raw))
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	metaPayload, _ := json.Marshal(map[string]string{"id": doc.Session.ID, "timestamp": doc.Session.Timestamp, "cwd": doc.Session.Cwd})
	_ = enc.Encode(line{Timestamp: doc.Session.Timestamp, Type: "session_meta", Payload: metaPayload})
	for _, it := range *doc.Items {
		_ = enc.Encode(line{Timestamp: doc.Session.Timestamp, Type: "response_item", Payload: it})
	}
	return io.NopCloser(&buf), nil
}
