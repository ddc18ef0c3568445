package store

import (
	"context"
	"fmt"
	"strconv"
)

// A first import can leave the trigram index for later: the trigram table
// costs one wazero writer more than the rows, unicode61 and the CJK grams
// together (BenchmarkImportLeversStore: Latin search complete at about
// twice the rate, every index complete sooner too). The rows it left out
// are one id range in state_meta, (recall_trigram_from, recall_trigram_to];
// while it exists, every trigram answer is topped up by a LIKE scan of those
// rows (plan.Gaps), exactly as Hermes covers its deferred rebuild, so
// a search never misses a row. IndexDeferredTrigram then indexes the range
// in chunks, each its own transaction that moves recall_trigram_from, so a
// pass killed at any point resumes where it stopped.

// The state_meta keys of the deferred range.
const (
	metaTrigramFrom = "recall_trigram_from"
	metaTrigramTo   = "recall_trigram_to"
)

// trigramChunk is how many ids one transaction of the pass indexes: large
// enough that FTS5 writes few segments, small enough that a reader or
// another writer waits under a second for it.
var trigramChunk int64 = 20_000

// SetDeferTrigram makes this store's bulk inserts leave the trigram index
// to IndexDeferredTrigram (on), or index it as they write (off, the
// default). Other writers of the file are not affected.
func (s *Store) SetDeferTrigram(on bool) { s.deferTrigram.Store(on) }

// deferred notes that message id was written without its trigram entry.
func (tx *Tx) deferred(id int64) {
	if tx.deferredLo == 0 || id < tx.deferredLo {
		tx.deferredLo = id
	}
	tx.deferredHi = max(tx.deferredHi, id)
}

// recordDeferred widens the stored range to cover this transaction's rows.
func (tx *Tx) recordDeferred() error {
	from, to, ok, err := tx.c.deferredRange()
	if err != nil {
		return err
	}
	lo, hi := tx.deferredLo-1, tx.deferredHi
	if ok {
		lo, hi = min(lo, from), max(hi, to)
	}
	if err := tx.SetMeta(metaTrigramFrom, strconv.FormatInt(lo, 10)); err != nil {
		return err
	}
	return tx.SetMeta(metaTrigramTo, strconv.FormatInt(hi, 10))
}

// deferredRange reads the range of ids the trigram index lacks.
func (c *conn) deferredRange() (from, to int64, ok bool, err error) {
	var fromS, toS string
	var okF, okT bool
	if fromS, okF, err = c.scalarText("SELECT value FROM state_meta WHERE key = ?", metaTrigramFrom); err != nil {
		return 0, 0, false, err
	}
	if toS, okT, err = c.scalarText("SELECT value FROM state_meta WHERE key = ?", metaTrigramTo); err != nil {
		return 0, 0, false, err
	}
	if !okF || !okT {
		return 0, 0, false, nil
	}
	from, err1 := strconv.ParseInt(fromS, 10, 64)
	to, err2 := strconv.ParseInt(toS, 10, 64)
	if err1 != nil || err2 != nil {
		return 0, 0, false, fmt.Errorf("state_meta %s/%s are not ids: %q, %q", metaTrigramFrom, metaTrigramTo, fromS, toS)
	}
	return from, to, true, nil
}

// DeferredTrigram reports how many message ids the trigram index has yet
// to take (0 when it is complete).
func (s *Store) DeferredTrigram(ctx context.Context) (int64, error) {
	if !s.layout.hasTrigram || !s.layout.hasImportMeta {
		return 0, nil
	}
	var n int64
	err := s.read(ctx, func(c *conn) error {
		from, to, ok, err := c.deferredRange()
		if ok {
			n = max(0, to-from)
		}
		return err
	})
	return n, err
}

// IndexDeferredTrigram indexes the rows a deferred import left out of the
// trigram index, a chunk per transaction, calling progress (if set) with
// the ids left after each; it returns when the index is complete or ctx
// ends (what was done stays done). A row that was indexed meanwhile (an
// update's trigger) is not indexed twice.
func (s *Store) IndexDeferredTrigram(ctx context.Context, progress func(left int64)) error {
	if s.readOnly || !s.layout.hasTrigram || !s.layout.hasImportMeta {
		return nil
	}
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		var left int64
		done := false
		err := s.Write(ctx, func(tx *Tx) error {
			from, to, ok, err := tx.c.deferredRange()
			if err != nil || !ok {
				done = true
				return err
			}
			next := min(to, from+trigramChunk)
			err = tx.c.run(`INSERT INTO messages_fts_trigram(rowid, content)
				SELECT m.id, `+indexTextSQL("m")+` FROM messages m
				WHERE m.id > ?1 AND m.id <= ?2
				  AND m.id NOT IN (SELECT rowid FROM messages_fts_trigram WHERE rowid > ?1 AND rowid <= ?2)`, from, next)
			if err != nil {
				return err
			}
			if next >= to {
				done = true
				return tx.c.run("DELETE FROM state_meta WHERE key IN (?, ?)", metaTrigramFrom, metaTrigramTo)
			}
			left = to - next
			return tx.SetMeta(metaTrigramFrom, strconv.FormatInt(next, 10))
		})
		if err != nil {
			return fmt.Errorf("index the deferred trigram rows: %w", err)
		}
		if progress != nil {
			progress(left)
		}
		if done {
			return nil
		}
	}
}

// FinishDeferredTrigram indexes, in the background, the rows an earlier
// import left out of the trigram index (its pass was stopped: a disk that
// filled up, an import killed, a file copied mid-import), so that they do
// not wait for the next import or watch: the TUI and the MCP server call
// it when they open the store. Searches find those rows meanwhile by a
// scan (route.go's gaps). It stops when the index is complete, ctx ends
// or the store closes; a failure (the disk still full) leaves the rest to
// the next try, as every chunk is a transaction of its own.
func (s *Store) FinishDeferredTrigram(ctx context.Context) {
	if s.readOnly || s.writer == nil || s.deferTrigram.Load() {
		return
	}
	if n, err := s.DeferredTrigram(ctx); err != nil || n == 0 {
		return
	}
	ctx, cancel := context.WithCancel(ctx)
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		cancel()
		return
	}
	s.stopBackground = append(s.stopBackground, cancel)
	s.background.Add(1)
	s.mu.Unlock()
	go func() {
		defer s.background.Done()
		defer cancel()
		_ = s.IndexDeferredTrigram(ctx, nil)
	}()
}
