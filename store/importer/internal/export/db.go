package export

import (
	"context"
	"strings"
	"time"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer"
	"github.com/recall-dev/recall/store/importer/internal/sqlitero"
)

// Head names one conversation of a database and its fingerprint, read
// without its messages.
type Head struct {
	ID          string
	Fingerprint string
}

// Reader reads the conversations of one database an app keeps its history
// in (Crush's crush.db, Goose's sessions.db, Cursor's state.vscdb).
type Reader interface {
	// Heads lists every conversation, parents before their children.
	Heads() ([]Head, error)
	// Load reads one conversation; ok is false when it yields nothing
	// (reported through t).
	Load(h Head, t *importer.Tally) (c Conversation, ok bool, err error)
}

// Elsewhere begins the state of a conversation's bookkeeping row when
// another file of the same source owns the conversation (Kiro CLI's JSONL
// journal of a conversation data.sqlite3 holds too): the rest is that
// file's path. ImportDB then leaves the conversation to it.
const Elsewhere = "elsewhere "

// ImportDB brings the copy of one database up to date: nothing is done
// when it and its WAL did not change since the last run; otherwise only
// the conversations whose fingerprint changed are read and replaced. The
// database is opened read-only (sqlitero), its reads bounded; a locked
// file is passed over (importer.PassOver) and read on the next run.
func ImportDB(ctx context.Context, st *store.Store, source, file string, open func(db *sqlitero.DB) (Reader, error)) (importer.Report, error) {
	var rep importer.Report
	if importer.SameFile(file, st.Path()) {
		return rep, errSelf(file)
	}
	sig, fi, err := sqlitero.SignatureOf(file)
	if err != nil {
		return rep, err
	}
	unchanged := false
	var listed []string // sessions the database held at earlier runs, named on its row
	err = st.Write(ctx, func(tx *store.Tx) error {
		prev, ok, err := tx.ImportFile(file)
		unchanged = err == nil && ok && prev.Source == source && prev.State == sig.String()
		listed = strings.Fields(prev.Sessions)
		return err
	})
	if err != nil || unchanged {
		if unchanged {
			rep.Unchanged = 1
		}
		return rep, err
	}
	t0 := time.Now()
	db, err := sqlitero.Open(ctx, file)
	if err != nil {
		return importer.PassOver(rep, file, err)
	}
	defer db.Close()
	r, err := open(db)
	if err != nil {
		return importer.PassOver(rep, file, err)
	}
	heads, err := r.Heads()
	if err != nil {
		return importer.PassOver(rep, file, err)
	}
	known := map[string]string{}
	err = st.Write(ctx, func(tx *store.Tx) error {
		for _, h := range heads {
			prev, ok, err := tx.ImportFile(Key(source, h.ID))
			if err != nil {
				return err
			}
			if ok {
				known[h.ID] = prev.State
			}
		}
		return nil
	})
	if err != nil {
		return rep, err
	}
	rep.ParseTime += time.Since(t0)
	w := &writer{ctx: ctx, st: st, source: source, file: file, rep: &rep}
	t := importer.NewTally(&rep, file)
	for _, h := range heads {
		if err := ctx.Err(); err != nil {
			return rep, err
		}
		if fp, ok := known[h.ID]; ok && (fp == h.Fingerprint || strings.HasPrefix(fp, Elsewhere)) {
			continue
		}
		t1 := time.Now()
		c, ok, err := r.Load(h, t)
		rep.ParseTime += time.Since(t1)
		if err != nil {
			if ferr := w.flush(); ferr != nil {
				return rep, ferr
			}
			return importer.PassOver(rep, file, err)
		}
		if !ok {
			continue
		}
		c.Fingerprint = h.Fingerprint
		c.Messages = importer.DropTooLarge(c.Messages, file, &rep)
		w.add(c)
		if w.full() {
			if err := w.flush(); err != nil {
				return rep, err
			}
		}
	}
	if err := w.flush(); err != nil {
		return rep, err
	}
	err = st.Write(ctx, func(tx *store.Tx) error {
		// The database's row names its sessions, so that `stats` and the
		// TUI can tell when the app deleted the file.
		// A session the app deleted from it stays named: recall still
		// has it from this file.
		ids := listed
		named := make(map[string]bool, len(listed))
		for _, id := range listed {
			named[id] = true
		}
		for _, h := range heads {
			prev, ok, err := tx.ImportFile(Key(source, h.ID))
			if err != nil {
				return err
			}
			if ok && prev.Sessions != "" && !named[prev.Sessions] && !strings.HasPrefix(prev.State, Elsewhere) {
				named[prev.Sessions] = true
				ids = append(ids, prev.Sessions)
			}
		}
		return tx.SetImportFile(store.ImportFile{Path: file, Source: source, Size: fi.Size(), ModTime: fi.ModTime(), State: sig.String(),
			Sessions: strings.Join(ids, " ")})
	})
	if err != nil {
		return rep, err
	}
	rep.Files = 1
	return rep, nil
}

// same reports whether a and b are the same file.
type errSelf string

func (e errSelf) Error() string { return string(e) + " is the recall database itself" }
