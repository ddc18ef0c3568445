package export

import (
	"context"
	"os"
	"strings"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer"
)

// ImportAssembled is Import for an export whose conversations cannot be
// streamed one by one because each is assembled from records spread over
// the file (Google Takeout's Gemini Apps activity lists every prompt on its
// own, newest first): read returns them all. They are written as Import
// writes streamed ones: in batches, a conversation whose fingerprint did
// not change left alone, one that changed replaced with what it no longer
// has kept; an unchanged file is not read again.
func ImportAssembled(ctx context.Context, st *store.Store, source, file string, read func(t *importer.Tally) ([]Conversation, error)) (importer.Report, error) {
	var rep importer.Report
	fi, err := os.Stat(file)
	if err != nil {
		return rep, err
	}
	unchanged := false
	err = st.Write(ctx, func(tx *store.Tx) error {
		prev, ok, err := tx.ImportFile(file)
		unchanged = err == nil && ok && prev.Source == source && prev.Size == fi.Size() &&
			importer.SameModTime(prev.ModTime, fi.ModTime()) && prev.State == stateDone
		return err
	})
	if err != nil || unchanged {
		if unchanged {
			rep.Unchanged = 1
		}
		return rep, err
	}
	convs, err := read(importer.NewTally(&rep, file))
	if err != nil {
		return rep, err
	}
	w := &writer{ctx: ctx, st: st, source: source, file: file, rep: &rep}
	ids := make([]string, 0, len(convs))
	for _, c := range convs {
		if err := ctx.Err(); err != nil {
			return rep, err
		}
		ids = append(ids, c.Session.ID)
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
		return tx.SetImportFile(store.ImportFile{Path: file, Source: source, Size: fi.Size(), ModTime: fi.ModTime(),
			State: stateDone, Sessions: strings.Join(ids, " ")})
	})
	if err != nil {
		return rep, err
	}
	rep.Files = 1
	return rep, nil
}
