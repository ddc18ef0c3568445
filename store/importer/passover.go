package importer

import (
	"errors"
	"fmt"

	"github.com/ncruces/go-sqlite3"
	"github.com/recall-dev/recall/store"
)

// PassOver is how an importer of another program's SQLite database
// reports an error reading it. A database locked by its app, caught in a
// checkpoint, not (yet) a SQLite database or malformed (an app creating
// it, a copy cut short) is passed over: counted in Deferred, with a line
// naming why, and read again on the next run; no error. A read stopped by
// a bound (sqlitero.BoundError) is the file's error, in its words. A fault
// of recall's own database (store.IsDatabaseFault) is never the read
// file's: it is returned as it is.
func PassOver(rep Report, file string, err error) (Report, error) {
	switch {
	case store.IsDatabaseFault(err):
		return rep, err
	case errors.Is(err, sqlite3.BUSY), errors.Is(err, sqlite3.LOCKED):
		rep.Defer(file, "locked by another program (its app, writing it): it will be read on the next run")
	case errors.Is(err, sqlite3.PROTOCOL):
		rep.Defer(file, "another program is checkpointing or recovering it: it will be read on the next run")
	case errors.Is(err, sqlite3.NOTADB):
		rep.Defer(file, "not a SQLite database (no SQLite header: an app still creating it, or another kind of file): not read, tried again on the next run")
	case errors.Is(err, sqlite3.CORRUPT):
		rep.Defer(file, "SQLite finds the database malformed (a copy cut short, or damaged): not read, tried again on the next run")
	case errors.Is(err, sqlite3.CANTOPEN):
		return rep, fmt.Errorf("SQLite cannot open it: %w", err)
	default:
		return rep, err
	}
	return rep, nil
}

// Defer counts a file passed over this run, with why: it is read on the
// next one.
func (r *Report) Defer(file, why string) {
	r.Deferred++
	r.note(Problem{File: file, Msg: why})
}
