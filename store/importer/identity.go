package importer

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/recall-dev/recall/store"
)

// identBytes bounds the first line hashed for a file's identity.
const identBytes = 4096

// FileIdent is a file's identity: a hash of its first line (at most
// identBytes), the record an agent writes first and never rewrites (Claude
// Code's and Codex's name the session). A rename or move keeps it, so a file
// on a new path is recognised as one imported before. "" for an empty file.
func FileIdent(r io.ReaderAt) (string, error) {
	buf := make([]byte, identBytes)
	n, err := r.ReadAt(buf, 0)
	if err != nil && err != io.EOF {
		return "", fmt.Errorf("read first line: %w", err)
	}
	buf = buf[:n]
	if i := bytes.IndexByte(buf, '\n'); i >= 0 {
		buf = buf[:i]
	}
	if len(bytes.TrimSpace(buf)) == 0 {
		return "", nil
	}
	sum := sha256.Sum256(buf)
	return hex.EncodeToString(sum[:16]), nil
}

// identOf opens path (a regular file only) and returns its FileIdent.
func identOf(path string) (string, error) {
	f, err := OpenRegular(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	return FileIdent(f)
}

// adoptMoved looks for the record of a file that was renamed or moved to
// path: same source, same identity, and an old path that no longer exists.
// A candidate with the recorded size and mtime (a plain mv) is taken first;
// a line file that grew since is taken too (PlanFile then checks its
// windows before resuming). A whole-file format only adopts an unchanged
// file: its first line ("{") says too little. The record is moved to path
// in tx and returned.
func adoptMoved(tx *store.Tx, source, path, ident string, fi os.FileInfo, whole bool) (store.ImportFile, bool, error) {
	if ident == "" {
		return store.ImportFile{}, false, nil
	}
	rows, err := tx.ImportFilesByIdent(source, ident)
	if err != nil {
		return store.ImportFile{}, false, fmt.Errorf("look up identity of %s: %w", path, err)
	}
	var pick *store.ImportFile
	for i := range rows {
		r := &rows[i]
		if r.Path == path {
			continue
		}
		if !filepath.IsAbs(r.Path) && SameFile(r.Path, path) {
			// The same file, recorded by the relative path it was once
			// given as (an older recall kept paths as typed).
			pick = r
			break
		}
		if _, err := os.Lstat(r.Path); !errors.Is(err, fs.ErrNotExist) {
			continue // still there: a copy, not a move
		}
		if r.Size == fi.Size() && SameModTime(r.ModTime, fi.ModTime()) {
			pick = r
			break
		}
		if !whole && pick == nil && r.Offset <= fi.Size() {
			pick = r
		}
	}
	if pick == nil {
		return store.ImportFile{}, false, nil
	}
	if err := tx.MoveImportFile(pick.Path, path); err != nil {
		return store.ImportFile{}, false, err
	}
	pick.Path = path
	return *pick, true, nil
}

// SameFile reports whether paths a and b name one existing file (a link,
// a relative path or another spelling of it).
func SameFile(a, b string) bool {
	ai, err1 := os.Stat(a)
	bi, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(ai, bi)
}

// AbsolutePaths moves the records an older recall kept under a relative
// path (`import jsonl assets/demo/x.jsonl`, as typed) to the absolute path
// of the file they name from the current folder, when it is that file (its
// identity, or with none recorded its size, matches); a record of the
// absolute path already there wins. The rest move when their file is
// imported again by any path (adoptMoved), and are never counted as gone
// meanwhile (store.SourceGone). `recall import` and `recall watch` call it
// first.
func AbsolutePaths(ctx context.Context, st *store.Store) error {
	files, err := st.ImportFiles(ctx)
	if err != nil {
		return err
	}
	type move struct{ from, to string }
	var moves []move
	for _, f := range files {
		if f.Path == "-" || f.Path == "" || filepath.IsAbs(f.Path) || strings.HasPrefix(f.Path, f.Source+":") {
			continue
		}
		abs, err := filepath.Abs(f.Path)
		if err != nil {
			continue
		}
		fi, err := StatRegular(abs)
		if err != nil {
			continue
		}
		if f.Ident != "" {
			if ident, err := identOf(abs); err != nil || ident != f.Ident {
				continue
			}
		} else if fi.Size() < f.Offset {
			continue
		}
		moves = append(moves, move{f.Path, abs})
	}
	if len(moves) == 0 {
		return nil
	}
	return st.Write(ctx, func(tx *store.Tx) error {
		for _, m := range moves {
			_, taken, err := tx.ImportFile(m.to)
			if err != nil {
				return err
			}
			if taken {
				err = tx.DropImportFile(m.from)
			} else {
				err = tx.MoveImportFile(m.from, m.to)
			}
			if err != nil {
				return err
			}
		}
		return nil
	})
}
