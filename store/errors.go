package store

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/ncruces/go-sqlite3"
)

// The kinds of database failure a person can act on. Errors from Open,
// Write and the read methods wrap one of them in an *Error, so callers test
// them with errors.Is and print the error as it is: one line that names the
// file and says what to do, never SQLite's internals.
var (
	// ErrNoDatabase: the file does not exist and Options.Create was not set.
	ErrNoDatabase = errors.New("no such database")
	// ErrNotDatabase: the file exists but is not a SQLite database.
	ErrNotDatabase = errors.New("not a SQLite database")
	// ErrCorrupt: SQLite found damaged pages (SQLITE_CORRUPT). Writing on
	// only spreads the damage, so importers stop at the first one.
	ErrCorrupt = errors.New("database is corrupt")
	// ErrDiskFull: a write ran out of space (SQLITE_FULL, ENOSPC). The
	// transaction was rolled back; nothing committed is lost.
	ErrDiskFull = errors.New("disk full")
	// ErrPermission: the operating system refused access to the file or
	// its directory.
	ErrPermission = errors.New("permission denied")
	// ErrLocked: another process held the write lock with no visible
	// progress for longer than any transaction recall makes.
	ErrLocked = errors.New("database is locked")
	// ErrHotJournal: another program crashed inside a rollback-journal
	// transaction; only a writer may roll it back, and recall never writes
	// a database it did not create.
	ErrHotJournal = errors.New("hot journal")
	// ErrTooLarge: a message is larger than MaxMessageBytes, or SQLite ran
	// out of memory on one statement (the transaction was rolled back).
	ErrTooLarge = errors.New("too large")
	// ErrIO: any other input/output error from the file system.
	ErrIO = errors.New("I/O error")
)

// Error is a database failure: which file, what kind (one of the Err*
// variables), and the underlying error for logs.
type Error struct {
	Path string
	Kind error
	Err  error
}

// Error is the one line a person reads.
func (e *Error) Error() string {
	p := e.Path
	switch e.Kind {
	case ErrNoDatabase:
		if errors.Is(e.Err, errEmptyFile) {
			return fmt.Sprintf("%s is an empty file: no database in it yet", p)
		}
		return fmt.Sprintf("%s: no such database file", p)
	case ErrNotDatabase:
		if errors.Is(e.Err, errIsDir) {
			return fmt.Sprintf("%s is a directory, not a SQLite database", p)
		}
		return fmt.Sprintf("%s is not a SQLite database", p)
	case ErrCorrupt:
		return fmt.Sprintf("%s is corrupt (SQLite found damaged pages): stop writing to it; check it with `sqlite3 %s 'PRAGMA integrity_check'`, then restore a backup or salvage it with `sqlite3 %s .recover | sqlite3 recovered.db`", p, p, p)
	case ErrDiskFull:
		return fmt.Sprintf("disk full writing %s: free some space and run the command again (the interrupted transaction was rolled back, nothing committed is lost)", p)
	case ErrPermission:
		return fmt.Sprintf("%s: permission denied (%s)", p, osReason(e.Err))
	case ErrLocked:
		return fmt.Sprintf("%s is locked: %v", p, e.Err)
	case ErrHotJournal:
		return fmt.Sprintf("%s has a hot journal (%s-journal): a program crashed in the middle of a write, and only a writer may roll it back; recall never writes a database it did not create: open it once with the program that wrote it (or `sqlite3 %s 'PRAGMA quick_check'`), then try again", p, p, p)
	case ErrTooLarge:
		return fmt.Sprintf("%s: %v", p, e.Err)
	case ErrWALDeleted:
		return fmt.Sprintf("%s: its -wal file was deleted while a program had the database open (%v): its last transactions live on only in that program, which writes them back as it closes; close every recall (and Hermes) using it, then run this again (if none is running, delete %s-shm too)", p, e.Err, p)
	}
	return fmt.Sprintf("%s: %s (%s)", p, e.Kind, osReason(e.Err))
}

// Unwrap exposes both the kind and the cause to errors.Is and errors.As.
func (e *Error) Unwrap() []error { return []error{e.Kind, e.Err} }

// osReason is the operating system's own words when there are some (the
// errno behind an SQLite I/O error), else SQLite's.
func osReason(err error) string {
	var errno syscall.Errno
	if errors.As(err, &errno) {
		return errno.Error()
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	var xc sqlite3.ExtendedErrorCode
	if errors.As(err, &xc) {
		return strings.TrimPrefix(xc.Code().Error(), "sqlite3: ")
	}
	if err == nil {
		return "unknown cause"
	}
	return err.Error()
}

// kindOf maps an SQLite or operating-system error about the database at
// path to an error kind; nil means the error is not about the database file
// (a bad query, a constraint, a cancelled context) and is returned as it is.
func kindOf(path string, err error) error {
	if aboutOtherFile(path, err) {
		// An importer's transcript it may not read is that file's
		// problem, not the database's (it was reported as "state.db:
		// permission denied" and stopped the import).
		return nil
	}
	// The driver returns an *sqlite3.Error or, from some calls, a bare
	// (extended) error code; both convert to an ExtendedErrorCode.
	var xc sqlite3.ExtendedErrorCode
	if errors.As(err, &xc) {
		switch xc.Code() {
		case sqlite3.NOTADB:
			return ErrNotDatabase
		case sqlite3.CORRUPT:
			return ErrCorrupt
		case sqlite3.FULL:
			return ErrDiskFull
		case sqlite3.PERM, sqlite3.AUTH:
			return ErrPermission
		case sqlite3.NOMEM:
			return ErrTooLarge
		case sqlite3.READONLY:
			if xc == sqlite3.READONLY_ROLLBACK {
				return ErrHotJournal
			}
			return ErrPermission
		case sqlite3.CANTOPEN:
			if errors.Is(err, fs.ErrPermission) {
				return ErrPermission
			}
			return ErrIO
		case sqlite3.IOERR:
			if xc == sqlite3.IOERR_CORRUPTFS {
				return ErrCorrupt
			}
			// The driver reports ENOSPC from a write as a bare
			// SQLITE_IOERR_WRITE (it matches the errno but not the
			// *os.PathError that wraps it), so a file system with no room
			// left is asked directly.
			if errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT) || noSpaceLeft(path) {
				return ErrDiskFull
			}
			if errors.Is(err, fs.ErrPermission) {
				return ErrPermission
			}
			return ErrIO
		}
		return nil
	}
	switch {
	case errors.Is(err, syscall.ENOSPC), errors.Is(err, syscall.EDQUOT):
		return ErrDiskFull
	case errors.Is(err, fs.ErrPermission), errors.Is(err, syscall.EROFS):
		return ErrPermission
	}
	return nil
}

// dbError wraps err as an *Error about path when it is a database-file
// failure; any other error (and one already wrapped) is returned unchanged.
func dbError(path string, err error) error {
	if err == nil {
		return nil
	}
	var e *Error
	if errors.As(err, &e) {
		return err
	}
	if k := kindOf(path, err); k != nil {
		return &Error{Path: path, Kind: k, Err: err}
	}
	return err
}

// IsDatabaseFault reports whether err is about the database file as a whole
// (corrupt, not a database, disk full, permission, I/O, a hot journal, a
// write lock another program holds past the lock timeout): every later
// write would fail the same way, so an importer stops instead of going on
// to the next file (a held lock once cost the whole timeout per file).
func IsDatabaseFault(err error) bool {
	for _, k := range []error{ErrCorrupt, ErrNotDatabase, ErrDiskFull, ErrPermission, ErrIO, ErrHotJournal, ErrReadOnly, ErrLocked, ErrWALDeleted} {
		if errors.Is(err, k) {
			return true
		}
	}
	return false
}

// aboutOtherFile reports an operating-system error that names a file other
// than the database at path, its companions (-wal, -shm, -journal) and the
// folders above it.
func aboutOtherFile(path string, err error) bool {
	var pe *fs.PathError
	if !errors.As(err, &pe) || pe.Path == "" {
		return false
	}
	p, db := absPath(pe.Path), absPath(path)
	if p == db || strings.HasPrefix(p, db+"-") {
		return false
	}
	for d := filepath.Dir(db); ; d = filepath.Dir(d) {
		if p == d {
			return false
		}
		if d == filepath.Dir(d) {
			break
		}
	}
	return true
}

func absPath(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return filepath.Clean(p)
}
