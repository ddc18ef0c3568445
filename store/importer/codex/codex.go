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
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/klauspost/compress/zstd"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer"
)

// SourceName is the session source of imported Codex sessions.
const SourceName = "codex"

func init() { importer.Register(Source{}) }

// Source imports Codex CLI rollouts.
type Source struct{}

// Name is "codex".
func (Source) Name() string { return SourceName }

// Home is ${CODEX_HOME:-~/.codex}.
func Home() string {
	if d := os.Getenv("CODEX_HOME"); d != "" {
		return d
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return ""
	}
	return filepath.Join(home, ".codex")
}

// DefaultPaths are the live and archived session folders.
func (Source) DefaultPaths() []string {
	h := Home()
	if h == "" {
		return nil
	}
	return []string{filepath.Join(h, "sessions"), filepath.Join(h, "archived_sessions")}
}

// Discover finds rollouts under paths, dropping a .jsonl.zst whose plain
// .jsonl exists, oldest first (so fork parents usually precede forks).
func (Source) Discover(paths []string) ([]string, error) {
	var out []string
	for _, root := range paths {
		fi, err := os.Stat(root)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("stat %s: %w", root, err)
		}
		if !fi.IsDir() {
			out = append(out, root)
			continue
		}
		if p := filepath.Join(root, "sessions"); isDir(p) {
			root = p
		}
		err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			n := d.Name()
			if strings.HasPrefix(n, "rollout-") && (strings.HasSuffix(n, ".jsonl") || strings.HasSuffix(n, ".jsonl.zst") || strings.HasSuffix(n, ".json")) {
				out = append(out, path)
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("walk %s: %w", root, err)
		}
	}
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

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

// Import brings one rollout up to date.
func (Source) Import(ctx context.Context, st *store.Store, file string) (importer.Report, error) {
	np := func() importer.LineParser { return newParser(file) }
	switch {
	case strings.HasSuffix(file, ".zst"):
		return importer.ImportWhole(ctx, st, SourceName, file, func() (io.ReadCloser, error) { return openZstd(file) }, np)
	case strings.HasSuffix(file, ".json"):
		return importer.ImportWhole(ctx, st, SourceName, file, func() (io.ReadCloser, error) { return openLegacy(file) }, np)
	}
	return importer.ImportLines(ctx, st, SourceName, file, np)
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
		Items []json.RawMessage `json:"items"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		return nil, fmt.Errorf("parse %s: %w", path, err)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	metaPayload, _ := json.Marshal(map[string]string{"id": doc.Session.ID, "timestamp": doc.Session.Timestamp, "cwd": doc.Session.Cwd})
	_ = enc.Encode(line{Timestamp: doc.Session.Timestamp, Type: "session_meta", Payload: metaPayload})
	for _, it := range doc.Items {
		_ = enc.Encode(line{Timestamp: doc.Session.Timestamp, Type: "response_item", Payload: it})
	}
	return io.NopCloser(&buf), nil
}
