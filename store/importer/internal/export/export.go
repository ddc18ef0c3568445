// Package export streams the conversations of a web chat's data export (a
// zip holding conversations.json, or that file itself: one JSON array of
// conversations) into a recall database with bounded memory.
//
// The array is read one element at a time with a json.Decoder, so a
// several-hundred-MB export never sits in memory whole: only the
// conversation being converted does. Conversations are committed in
// batches, each batch one transaction, and each conversation remembers a
// fingerprint (a row of its own in recall_import_files, path
// "<source>:<conversation id>"): a later export, or the same one read again
// after an interrupted run, skips the conversations that did not change and
// replaces the ones that did, wherever the new export file lies.
package export

import (
	"archive/zip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer"
	"github.com/recall-dev/recall/store/importer/internal/jsonstream"
)

// Conversation is one element of the export, converted.
type Conversation struct {
	Session store.Session
	// Related are sessions written with it (a branch of its transcript),
	// children of Session; Messages may name them.
	Related  []store.Session
	Messages []store.Message
	// Fingerprint changes whenever what the conversation imports does;
	// when empty, a hash of the element's JSON.
	Fingerprint string
}

// Entry is the name of the array inside an export zip.
const Entry = "conversations.json"

// Batch bounds: a transaction carries at most this many conversations or
// messages, so a killed import loses at most one batch and memory stays
// bounded.
var (
	batchConversations = 200
	batchMessages      = 4000
)

// counter counts the bytes read through it.
type counter struct {
	r io.Reader
	n int64
}

func (c *counter) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// open returns the conversations array of file (a zip holding Entry, or the
// JSON file itself), how many bytes it holds and how to scale a count of
// them to the file's size for the progress.
func open(file string) (io.ReadCloser, float64, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, 0, fmt.Errorf("open %s: %w", file, err)
	}
	var magic [4]byte
	n, _ := io.ReadFull(f, magic[:])
	if n < 4 || string(magic[:]) != "PK\x03\x04" {
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			f.Close()
			return nil, 0, err
		}
		return f, 1, nil
	}
	f.Close()
	zr, err := zip.OpenReader(file)
	if err != nil {
		return nil, 0, fmt.Errorf("open zip %s: %w", file, err)
	}
	var best *zip.File
	for _, zf := range zr.File {
		if path.Base(zf.Name) != Entry {
			continue
		}
		// The top-level conversations.json, not a copy in a subfolder.
		if best == nil || strings.Count(zf.Name, "/") < strings.Count(best.Name, "/") {
			best = zf
		}
	}
	if best == nil {
		zr.Close()
		return nil, 0, fmt.Errorf("%s holds no %s: is it the data export's zip?", file, Entry)
	}
	rc, err := best.Open()
	if err != nil {
		zr.Close()
		return nil, 0, fmt.Errorf("open %s in %s: %w", best.Name, file, err)
	}
	scale := 1.0
	if best.UncompressedSize64 > 0 {
		scale = float64(best.CompressedSize64) / float64(best.UncompressedSize64)
	}
	return struct {
		io.Reader
		io.Closer
	}{rc, closers{rc, zr}}, scale, nil
}

type closers []io.Closer

func (cs closers) Close() error {
	var first error
	for _, c := range cs {
		if err := c.Close(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// ImportStream streams file's conversations into st under source, read as
// f says.
func ImportStream[C any](ctx context.Context, st *store.Store, source, file string, f Format[C]) (importer.Report, error) {
	var rep importer.Report
	fi, err := os.Stat(file)
	if err != nil {
		return rep, fmt.Errorf("stat %s: %w", file, err)
	}
	unchanged := false
	err = st.Write(ctx, func(tx *store.Tx) error {
		prev, ok, err := tx.ImportFile(file)
		unchanged = err == nil && ok && prev.Source == source && prev.Size == fi.Size() &&
			importer.SameModTime(prev.ModTime, fi.ModTime()) && prev.State == stateDone
		return err
	})
	if err != nil {
		return rep, err
	}
	if unchanged {
		rep.Unchanged = 1
		return rep, nil
	}
	rc, scale, err := open(file)
	if err != nil {
		return rep, err
	}
	defer rc.Close()
	cnt := &counter{r: rc}
	s := &streamer[C]{f: f, rd: jsonstream.NewReader(cnt), items: newItems()}
	defer s.items.sp.close()
	top := s.rd.Array()
	if top.Err() != nil {
		c, err := s.rd.Peek()
		if err != nil {
			return rep, fmt.Errorf("%s: %s", file, importer.DecodeProblem(s.rd.ReadErr(err)))
		}
		return rep, fmt.Errorf("%s: the export's %s is a list of conversations; this starts with %q", file, Entry, c)
	}
	w := &writer{ctx: ctx, st: st, source: source, file: file, rep: &rep}
	t := importer.NewTally(&rep, file)
	var ids []string // the export's conversations, named on its row
	for i := 1; top.Next(); i++ {
		if err := ctx.Err(); err != nil {
			return rep, err
		}
		t.Line = i
		t0 := time.Now()
		c, ok, fp, err := s.conversation(t)
		if err != nil {
			// The stream cannot be followed past broken JSON: what was read
			// is kept, the file is retried next time.
			if err := w.flush(); err != nil {
				return rep, err
			}
			return rep, fmt.Errorf("%s: conversation %d (byte %d): %s", file, i, s.rd.Offset(), importer.DecodeProblem(err))
		}
		if ok {
			conv, err := s.rows(c, fp, i, file, &rep)
			rep.ParseTime += time.Since(t0)
			switch {
			case errors.Is(err, errLarge):
				// More rows than a batch: written on their own, converted
				// again from the spool inside the transaction.
				if err := w.flush(); err != nil {
					return rep, err
				}
				written, err := w.stream(conv.Session, fp, i, func(t *importer.Tally, sess *store.Session, emit func(store.Message) error) error {
					return f.Rows(c, sess, s.items, t, emit)
				})
				if err != nil {
					return rep, err
				}
				if written {
					ids = append(ids, conv.Session.ID)
				}
			case err != nil:
				return rep, err
			case len(conv.Messages) > 0:
				ids = append(ids, conv.Session.ID)
				conv.Messages = importer.DropStreamedTooLarge(conv.Messages, file, &rep)
				w.add(conv)
			}
		} else {
			rep.ParseTime += time.Since(t0)
		}
		if err := s.items.reset(); err != nil {
			return rep, err
		}
		if w.full() {
			if err := w.flush(); err != nil {
				return rep, err
			}
			// What was consumed, not what the buffer read ahead.
			importer.FileProgress(ctx, int64(float64(s.rd.Offset())*scale), rep.Messages)
		}
	}
	if err := top.Err(); err != nil {
		if err := w.flush(); err != nil {
			return rep, err
		}
		return rep, fmt.Errorf("%s: after conversation %d (byte %d): %s", file, t.Line, s.rd.Offset(), importer.DecodeProblem(err))
	}
	if err := w.flush(); err != nil {
		return rep, err
	}
	err = st.Write(ctx, func(tx *store.Tx) error {
		stored := make([]string, 0, len(ids))
		for _, id := range ids {
			if s, ok, err := tx.StoredID(source, id); err != nil {
				return err
			} else if ok {
				stored = append(stored, s)
			}
		}
		return tx.SetImportFile(store.ImportFile{Path: file, Source: source, Size: fi.Size(), ModTime: fi.ModTime(),
			Offset: cnt.n, State: stateDone, Sessions: strings.Join(stored, " ")})
	})
	if err != nil {
		return rep, err
	}
	rep.Files = 1
	return rep, nil
}

// errLarge stops the conversion of a conversation with more rows than a
// batch holds.
var errLarge = errors.New("more rows than a batch")

// conversation reads one element and decodes its head; fp is the hash of
// its bytes as they are in the file (or the source's own fingerprint).
func (s *streamer[C]) conversation(t *importer.Tally) (c C, ok bool, fp string, err error) {
	if _, err := s.rd.Peek(); err != nil {
		return c, false, "", s.rd.ReadErr(err)
	}
	h := sha256.New()
	s.rd.Tee(h)
	head, err := s.element(t)
	s.rd.Tee(nil)
	if err != nil || head == nil {
		return c, false, "", err
	}
	sum := h.Sum(nil)
	fp = hex.EncodeToString(sum[:12])
	c, sess, ok := s.f.Head(head, t)
	if cap(s.head) > 4<<20 {
		s.head = nil
	}
	if !ok || !checkHead(&sess, t) {
		return c, false, "", nil
	}
	s.sess = sess
	return c, true, fp, nil
}

// rows converts a conversation whose rows fit one batch; errLarge when
// they do not (nothing of it is kept: it is converted again as it is
// written). What the conversion reports is added to rep only when it is
// kept.
func (s *streamer[C]) rows(c C, fp string, line int, file string, rep *importer.Report) (Conversation, error) {
	var part importer.Report
	t := importer.NewTally(&part, file)
	t.Line = line
	conv := Conversation{Session: s.sess, Fingerprint: fp}
	err := s.f.Rows(c, &conv.Session, s.items, t, func(m store.Message) error {
		if len(conv.Messages) == batchMessages {
			return errLarge
		}
		conv.Messages = append(conv.Messages, m)
		return nil
	})
	if err == nil {
		rep.Add(part)
	}
	return conv, err
}

// stateDone marks an export read to its end; an interrupted one has no
// row, so the next run reads it again (skipping what it committed).
const stateDone = `{"done":true}`

// writer gathers conversations into batches.
type writer struct {
	ctx    context.Context
	st     *store.Store
	source string
	file   string
	rep    *importer.Report
	convs  []Conversation
	msgs   int
}

func (w *writer) add(c Conversation) {
	w.convs = append(w.convs, c)
	w.msgs += len(c.Messages)
}

// stream writes one conversation of more rows than a batch in a
// transaction of its own, converting it (rows) as it goes: its rows are
// never all in memory. written is false when it was imported before as it
// is, or yields no row.
func (w *writer) stream(sess store.Session, fp string, line int, rows func(t *importer.Tally, sess *store.Session, emit func(store.Message) error) error) (written bool, err error) {
	t0 := time.Now()
	var part importer.Report
	inserted, rewritten := 0, 0
	err = w.st.Write(w.ctx, func(tx *store.Tx) error {
		defer func() { rewritten = tx.Rewritten() }()
		part, inserted, written = importer.Report{}, 0, false
		t := importer.NewTally(&part, w.file)
		t.Line = line
		key := Key(w.source, sess.ID)
		prev, seen, err := tx.ImportFile(key)
		if err != nil || seen && prev.State == fp {
			return err
		}
		s := sess
		buf := make([]store.Message, 0, batchMessages)
		put := func() error {
			msgs := importer.DropStreamedTooLarge(buf, w.file, &part)
			buf = buf[:0]
			if !written {
				// The session first (its messages refer to it), as far as
				// the rows so far tell; completed below.
				if err := importer.WriteSessions(tx, []store.Session{s}, true); err != nil {
					return err
				}
				written = true
			}
			if seen {
				var err error
				if msgs, err = tx.KeepDropped(s.ID, msgs); err != nil {
					return err
				}
			}
			n, err := tx.InsertMessages(msgs)
			if err != nil {
				return fmt.Errorf("insert messages of %s: %w", s.ID, err)
			}
			inserted += n
			return nil
		}
		err = rows(t, &s, func(m store.Message) error {
			buf = append(buf, m)
			if len(buf) == cap(buf) {
				return put()
			}
			return nil
		})
		if err == nil && len(buf) > 0 {
			err = put()
		}
		if err != nil || !written {
			return err
		}
		if err := importer.WriteSessions(tx, []store.Session{s}, true); err != nil {
			return err
		}
		return tx.SetImportFile(store.ImportFile{Path: key, Source: w.source, ModTime: s.StartedAt, State: fp, Sessions: s.ID})
	})
	if err != nil {
		return false, err
	}
	w.rep.Add(part)
	if written {
		w.rep.Sessions++
		w.rep.Messages += inserted
		w.rep.Rewritten += rewritten
	}
	w.rep.WriteTime += time.Since(t0)
	return written, nil
}

func (w *writer) full() bool {
	return len(w.convs) >= batchConversations || w.msgs >= batchMessages
}

// Key is the bookkeeping path of one conversation.
func Key(source, id string) string { return source + ":" + id }

// flush writes the gathered conversations in one transaction: each one
// whose fingerprint changed replaces what it imported before.
func (w *writer) flush() error {
	if len(w.convs) == 0 {
		return nil
	}
	t0 := time.Now()
	var sessions, inserted, rewritten int
	err := w.st.Write(w.ctx, func(tx *store.Tx) error {
		defer func() { rewritten = tx.Rewritten() }()
		sessions, inserted = 0, 0
		for _, c := range w.convs {
			key := Key(w.source, c.Session.ID)
			prev, seen, err := tx.ImportFile(key)
			if err != nil {
				return err
			}
			if seen && prev.State == c.Fingerprint {
				continue
			}
			if err := importer.WriteSessions(tx, append([]store.Session{c.Session}, c.Related...), true); err != nil {
				return err
			}
			if seen {
				// What the export no longer has (a deleted branch, a
				// pruned conversation) stays in recall, and a message it
				// rewrote keeps its earlier text.
				if c.Messages, err = tx.KeepDropped(c.Session.ID, c.Messages); err != nil {
					return err
				}
			}
			if len(c.Messages) > 0 {
				n, err := tx.InsertMessages(c.Messages)
				if err != nil {
					return fmt.Errorf("insert messages of %s: %w", c.Session.ID, err)
				}
				inserted += n
			}
			sessions++
			err = tx.SetImportFile(store.ImportFile{Path: key, Source: w.source, ModTime: c.Session.StartedAt,
				State: c.Fingerprint, Sessions: c.Session.ID})
			if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	w.rep.Sessions += sessions
	w.rep.Messages += inserted
	w.rep.Rewritten += rewritten
	w.rep.WriteTime += time.Since(t0)
	w.convs, w.msgs = w.convs[:0], 0
	return nil
}

// Discover returns the named files, and for a named folder (an unpacked
// export) its conversations.json.
func Discover(paths []string) ([]string, error) {
	files, dirs, err := importer.SplitPaths(paths)
	if err != nil {
		return nil, err
	}
	for _, d := range dirs {
		p := filepath.Join(d, Entry)
		if importer.IsFile(p) {
			files = append(files, p)
		}
	}
	return files, nil
}
