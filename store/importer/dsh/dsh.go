// Package dsh imports the sessions of DeepSeek Harness (the dsh CLI,
// @deepseek-ai/dsh). Each session is an append-only event log,
// <sessions>/<projectKey(cwd)>/<encoded id>/session.jsonl.zstd (zstd frames,
// one per flush; session.jsonl when written uncompressed), under
// $DSH_HOME/sessions, else ~/.dsh/sessions. Its first line is the session
// header ({"type": "session", "version": 0, "id", "createdAt", "cwd",
// "parentSession", "origin", "delegationDepth", …}); every other line is an
// event {type, seq, time, data} (surface events also carry surfaceOp), or
// a row packing several stream chunks (text-chunks, reasoning-chunks,
// tool-call-chunks), which recall does not need: the assembled
// assistant/message follows them.
//
// A compressed log is only ever read whole: any change re-reads it and
// replaces its rows (keyed by event seq), a torn last frame or line (dsh
// writing, or stopped mid-write) read as far as it is whole.
package dsh

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/klauspost/compress/zstd"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer"
)

// SourceName is the session source of imported DeepSeek Harness sessions.
const SourceName = "deepseek-harness"

func init() { importer.Register(&Source{}, "dsh", "deepseek") }

// Source imports DeepSeek Harness session logs. Its zero value is ready.
type Source struct{}

// Name is "deepseek-harness".
func (*Source) Name() string { return SourceName }

// SessionsDir is $DSH_HOME/sessions, else ~/.dsh/sessions.
func SessionsDir() string {
	return filepath.Join(importer.HomeDir("DSH_HOME", ".dsh"), "sessions")
}

// DefaultPaths is the sessions folder.
func (*Source) DefaultPaths() []string {
	if importer.HomeDir("DSH_HOME", ".dsh") == "" {
		return nil
	}
	return []string{SessionsDir()}
}

// isLog reports whether name is a session log's: session.jsonl.zstd,
// session.jsonl, or a versioned session.vN.jsonl(.zstd).
func isLog(name string) bool {
	if !strings.HasPrefix(name, "session.") {
		return false
	}
	return strings.HasSuffix(name, ".jsonl.zstd") || strings.HasSuffix(name, ".jsonl")
}

// Discover returns named files and the session logs under named folders
// (a dsh home, its sessions folder, or one project's); a session folder
// holding both forms is read from its .zstd (dsh's default).
func (*Source) Discover(paths []string) ([]string, error) {
	var found []string
	named, err := importer.FindFiles(paths, importer.Subfolder("sessions"), nil, func(path, name string) {
		if isLog(name) {
			found = append(found, path)
		}
	})
	if err != nil {
		return nil, err
	}
	has := map[string]bool{}
	for _, p := range found {
		has[p] = true
	}
	out := named
	for _, p := range found {
		if strings.HasSuffix(p, ".jsonl") && has[p+".zstd"] {
			continue
		}
		out = append(out, p)
	}
	return out, nil
}

// Import brings one session up to date: any change reads it whole and
// replaces its rows (what it no longer holds is kept).
func (*Source) Import(ctx context.Context, st *store.Store, file string) (importer.Report, error) {
	open := func() (io.ReadCloser, error) {
		raw, err := read(file)
		if err != nil {
			return nil, err
		}
		return io.NopCloser(bytes.NewReader(raw)), nil
	}
	return importer.ImportWhole(ctx, st, SourceName, file, open, func() importer.LineParser { return newParser(file) })
}

// read returns the log's complete lines: a .zstd file's frames decoded
// as far as they are whole, and a last line without its newline (cut off
// mid-write) dropped.
func read(file string) ([]byte, error) {
	raw, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	if strings.HasSuffix(file, ".zstd") {
		out, err := decodeFrames(raw)
		if err != nil {
			return nil, err
		}
		raw = out
	}
	if i := bytes.LastIndexByte(raw, '\n'); i >= 0 {
		raw = raw[:i+1]
	} else {
		raw = nil
	}
	return raw, nil
}

// decodeFrames inflates a stream of zstd frames; a torn last frame (dsh
// appends one per flush) ends it. A file whose first frame is not whole
// is not a session log yet.
func decodeFrames(raw []byte) ([]byte, error) {
	d, err := zstd.NewReader(bytes.NewReader(raw), zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxWindow(64<<20))
	if err != nil {
		return nil, err
	}
	defer d.Close()
	var out bytes.Buffer
	_, err = io.Copy(&out, d)
	if err != nil && out.Len() == 0 {
		if errors.Is(err, io.ErrUnexpectedEOF) {
			return nil, nil // nothing whole yet: read again when more is written
		}
		return nil, err
	}
	return out.Bytes(), nil
}
