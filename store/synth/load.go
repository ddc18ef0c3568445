package synth

import (
	"context"
	"fmt"

	"github.com/recall-dev/recall/store"
)

// LoadBatch is how many messages Load writes per transaction: large enough
// that the store's bulk path (direct index writes, one big FTS5 flush) does
// the work, small enough that a progress line moves every second or so.
const LoadBatch = 5000

// Load generates the corpus described by opt into st, which must hold no
// messages yet (the corpus is meant to be reproducible, and session ids
// would collide with an earlier run). progress, when set, is called after
// every transaction with the messages written so far. It returns the
// number of sessions written.
func Load(ctx context.Context, st *store.Store, opt Options, progress func(done int)) (int, error) {
	if opt.Messages <= 0 {
		return 0, fmt.Errorf("gen: --messages must be positive, got %d", opt.Messages)
	}
	stats, err := st.Stats(ctx)
	if err != nil {
		return 0, err
	}
	if stats.Messages > 0 {
		return 0, fmt.Errorf("gen: %s already holds %d messages; generate into a new database", st.Path(), stats.Messages)
	}
	g := New(opt)
	var batch []Session
	n, written, sessions := 0, 0, 0
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		err := st.Write(ctx, func(tx *store.Tx) error {
			var msgs []store.Message
			for _, s := range batch {
				if err := tx.UpsertSession(s.Session); err != nil {
					return err
				}
				msgs = append(msgs, s.Messages...)
			}
			_, err := tx.InsertMessages(msgs)
			return err
		})
		if err != nil {
			return err
		}
		written += n
		sessions += len(batch)
		batch, n = batch[:0], 0
		if progress != nil {
			progress(written)
		}
		return nil
	}
	for {
		s, ok := g.Next()
		if !ok {
			break
		}
		batch = append(batch, s)
		n += len(s.Messages)
		if n >= LoadBatch {
			if err := flush(); err != nil {
				return sessions, err
			}
		}
	}
	err = flush()
	return sessions, err
}
