// Package batch is the file format of recall sync: what one database sends
// another, over ssh (`recall sync`) or as a file (`recall export --batch`,
// `recall import batch`).
//
// A batch is a zstd stream of JSON lines: a header (the format and its
// version, the writer's machine and schema, the watermark range it covers),
// then records (machines, tombstones, each session followed by its
// messages; store.SyncSession and friends), then a trailer that counts the
// records and holds the SHA-256 of every line before it. A reader checks
// the whole stream (Check) before anything is applied (Apply): a batch cut
// short or altered anywhere is rejected whole, with one line saying how.
package batch

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io"
	"os"
	"time"

	"github.com/klauspost/compress/zstd"

	"github.com/recall-dev/recall/store"
)

// FormatName marks a batch's header.
const FormatName = "recall-batch"

// Version is the batch format this recall writes; it reads every version
// from MinVersion to Version.
const (
	Version    = 1
	MinVersion = 1
)

// Header is a batch's first line.
type Header struct {
	Format      string `json:"format"`
	Version     int    `json:"version"`
	Machine     string `json:"machine"`      // the writer's machine id
	MachineName string `json:"machine_name"` // and its name
	Schema      int    `json:"schema"`       // the writer's recall_schema_version
	Recall      string `json:"recall,omitempty"`
	Created     string `json:"created"`
	// The range covered: messages (AfterID, UpTo] of the writer's database
	// and tombstones (TombstonesAfter, TombstonesUpTo]; Since, when set,
	// narrowed it to messages written since then (a partial batch: it
	// moves no watermark).
	AfterID         int64   `json:"after_id"`
	UpTo            int64   `json:"up_to"`
	TombstonesAfter float64 `json:"tombstones_after"`
	TombstonesUpTo  float64 `json:"tombstones_up_to"`
	Since           string  `json:"since,omitempty"`
	// Redacted says the writer redacted every text (redact_at_import).
	Redacted bool `json:"redacted,omitempty"`
	// Exclude is the machine whose sessions were left out (the receiver's).
	Exclude string `json:"exclude,omitempty"`
}

// Watermark is what a receiver holds of the writer once it applied the
// batch, or nil when the batch is partial (Since) and moves none.
func (h Header) Watermark() *store.Watermark {
	if h.Since != "" {
		return nil
	}
	return &store.Watermark{MessageID: h.UpTo, TombstoneAt: h.TombstonesUpTo}
}

// record is one line after the header.
type record struct {
	Kind      string             `json:"k"`
	Machine   *store.Machine     `json:"machine,omitempty"`
	Tombstone *store.Tombstone   `json:"tombstone,omitempty"`
	Session   *store.SyncSession `json:"session,omitempty"`
	Message   *store.SyncMessage `json:"message,omitempty"`
	// The trailer's.
	Records int    `json:"records,omitempty"`
	SHA256  string `json:"sha256,omitempty"`
}

const (
	kindMachine   = "machine"
	kindTombstone = "tombstone"
	kindSession   = "session"
	kindMessage   = "message"
	kindEnd       = "end"
)

// Writer writes a batch; it is a store.BatchSink. Close writes the trailer.
type Writer struct {
	z       *zstd.Encoder
	buf     *bufio.Writer
	sum     hash.Hash
	records int
	header  Header
	begun   bool
	// Header fields the export does not know.
	AfterID         int64
	TombstonesAfter float64
	Since           time.Time
	Redacted        bool
	Exclude         string
	Recall          string
}

// NewWriter starts a batch on w (compressed; w is not closed).
func NewWriter(w io.Writer) (*Writer, error) {
	z, err := zstd.NewWriter(w, zstd.WithEncoderLevel(zstd.SpeedDefault), zstd.WithEncoderConcurrency(1))
	if err != nil {
		return nil, err
	}
	return &Writer{z: z, buf: bufio.NewWriterSize(z, 256<<10), sum: sha256.New()}, nil
}

func (w *Writer) line(v any, hashed bool) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	b = append(b, '\n')
	if hashed {
		w.sum.Write(b)
	}
	_, err = w.buf.Write(b)
	return err
}

// Begin writes the header.
func (w *Writer) Begin(info store.ExportInfo) error {
	w.header = Header{Format: FormatName, Version: Version, Machine: info.Machine.ID, MachineName: info.Machine.Name,
		Schema: info.Schema, Recall: w.Recall, Created: time.Now().UTC().Format(time.RFC3339),
		AfterID: w.AfterID, UpTo: info.UpTo, TombstonesAfter: w.TombstonesAfter, TombstonesUpTo: info.TombstonesUpTo,
		Redacted: w.Redacted, Exclude: w.Exclude}
	if !w.Since.IsZero() {
		w.header.Since = w.Since.UTC().Format(time.RFC3339)
	}
	w.begun = true
	return w.line(w.header, true)
}

func (w *Writer) record(r record) error {
	w.records++
	return w.line(r, true)
}

// Machine writes a machine record.
func (w *Writer) Machine(m store.Machine) error {
	return w.record(record{Kind: kindMachine, Machine: &store.Machine{ID: m.ID, Name: m.Name}})
}

// Tombstone writes a tombstone record.
func (w *Writer) Tombstone(t store.Tombstone) error {
	return w.record(record{Kind: kindTombstone, Tombstone: &t})
}

// Session writes a session record.
func (w *Writer) Session(s store.SyncSession) error {
	return w.record(record{Kind: kindSession, Session: &s})
}

// Message writes a message record.
func (w *Writer) Message(m store.SyncMessage) error {
	return w.record(record{Kind: kindMessage, Message: &m})
}

// Header is the header written (after Begin).
func (w *Writer) Header() Header { return w.header }

// Close writes the trailer and ends the compressed stream.
func (w *Writer) Close() error {
	if !w.begun {
		return errors.New("batch: closed before its header")
	}
	if err := w.line(record{Kind: kindEnd, Records: w.records, SHA256: hex.EncodeToString(w.sum.Sum(nil))}, false); err != nil {
		return err
	}
	if err := w.buf.Flush(); err != nil {
		return err
	}
	return w.z.Close()
}

// Stats are what Check found.
type Stats struct {
	Sessions, Messages, Tombstones, Machines int
	Bytes                                    int64 // compressed
}

// Error is a batch that cannot be applied.
type Error struct{ Msg string }

func (e *Error) Error() string { return e.Msg }

func bad(format string, a ...any) error { return &Error{Msg: fmt.Sprintf(format, a...)} }

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

// scan reads a batch from r, calling fn for each record after the header,
// and checks the header's format and version, the record count and the
// checksum. It stops at the first problem.
func scan(r io.Reader, onHeader func(Header) error, fn func(Header, record) error) (Header, Stats, error) {
	var st Stats
	cnt := &counter{r: r}
	z, err := zstd.NewReader(cnt, zstd.WithDecoderConcurrency(1), zstd.WithDecoderLowmem(true))
	if err != nil {
		return Header{}, st, err
	}
	defer z.Close()
	br := bufio.NewReaderSize(z, 256<<10)
	sum := sha256.New()
	readLine := func() ([]byte, error) {
		b, err := br.ReadBytes('\n')
		if err == io.EOF && len(b) == 0 {
			return nil, io.EOF
		}
		if err == io.EOF {
			return nil, bad("the batch is cut short (its last line has no end)")
		}
		if err != nil {
			return nil, describe(err)
		}
		return b, nil
	}
	first, err := readLine()
	if err == io.EOF {
		return Header{}, st, bad("the batch is empty")
	}
	if err != nil {
		return Header{}, st, err
	}
	var h Header
	if json.Unmarshal(first, &h) != nil || h.Format != FormatName {
		return Header{}, st, bad("not a recall batch (no batch header)")
	}
	if h.Version > Version || h.Version < MinVersion {
		return h, st, bad("batch format %d (written by recall schema %d on %s): this recall reads formats %d to %d; upgrade recall here",
			h.Version, h.Schema, h.MachineName, MinVersion, Version)
	}
	sum.Write(first)
	if onHeader != nil {
		if err := onHeader(h); err != nil {
			return h, st, err
		}
	}
	records := 0
	for {
		b, err := readLine()
		if err == io.EOF {
			return h, st, bad("the batch is cut short after %d records (no trailer)", records)
		}
		if err != nil {
			return h, st, err
		}
		var rec record
		if err := json.Unmarshal(b, &rec); err != nil {
			return h, st, bad("record %d is not valid JSON: the batch is damaged", records+1)
		}
		if rec.Kind == kindEnd {
			if rec.Records != records || rec.SHA256 != hex.EncodeToString(sum.Sum(nil)) {
				return h, st, bad("the batch's checksum does not match its contents: it was altered or damaged")
			}
			if _, err := readLine(); err != io.EOF {
				return h, st, bad("the batch has data after its trailer")
			}
			st.Bytes = cnt.n
			return h, st, nil
		}
		sum.Write(b)
		records++
		switch {
		case rec.Kind == kindMachine && rec.Machine != nil:
			st.Machines++
		case rec.Kind == kindTombstone && rec.Tombstone != nil:
			st.Tombstones++
		case rec.Kind == kindSession && rec.Session != nil:
			st.Sessions++
		case rec.Kind == kindMessage && rec.Message != nil:
			st.Messages++
		default:
			return h, st, bad("record %d is of an unknown kind %q: the batch is damaged or from a newer recall", records, rec.Kind)
		}
		if fn != nil {
			if err := fn(h, rec); err != nil {
				return h, st, err
			}
		}
	}
}

// describe turns a decompression error into a line a person can act on.
func describe(err error) error {
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return bad("the batch is cut short (its compressed stream ends early)")
	}
	var e *Error
	if errors.As(err, &e) {
		return err
	}
	return bad("the batch is damaged: %v", err)
}

// Check reads a whole batch and reports whether it can be applied.
func Check(r io.Reader) (Header, Stats, error) {
	return scan(r, nil, nil)
}

// Apply replays a checked batch into sink (a store.Applier).
func Apply(r io.Reader, sink store.BatchSink) (Header, error) {
	h, _, err := scan(r, func(h Header) error { return sink.Begin(h.Info()) }, func(h Header, rec record) error {
		switch rec.Kind {
		case kindMachine:
			return sink.Machine(*rec.Machine)
		case kindTombstone:
			return sink.Tombstone(*rec.Tombstone)
		case kindSession:
			return sink.Session(*rec.Session)
		case kindMessage:
			return sink.Message(*rec.Message)
		}
		return nil
	})
	return h, err
}

// Info is a header as the store's export describes it.
func (h Header) Info() store.ExportInfo {
	return store.ExportInfo{Machine: store.Machine{ID: h.Machine, Name: h.MachineName}, Schema: h.Schema,
		UpTo: h.UpTo, TombstonesUpTo: h.TombstonesUpTo}
}

// ApplyFile checks the batch at path whole and then applies it to st. The
// writer's watermark moves when the batch starts within what st holds of
// it already (a batch from further on leaves a gap: it is applied, and the
// next sync fills the gap).
func ApplyFile(ctx context.Context, st *store.Store, path string) (Header, store.ApplyReport, error) {
	var rep store.ApplyReport
	open := func() (*os.File, error) { return os.Open(path) }
	f, err := open()
	if err != nil {
		return Header{}, rep, err
	}
	h, _, err := Check(f)
	f.Close()
	if err != nil {
		return h, rep, err
	}
	have, err := st.PeerWatermark(ctx, h.Machine)
	if err != nil {
		return h, rep, err
	}
	var mark *store.Watermark
	if w := h.Watermark(); w != nil {
		m := have
		if have.MessageID >= h.AfterID {
			m.MessageID = max(have.MessageID, w.MessageID)
		}
		if have.TombstoneAt >= h.TombstonesAfter {
			m.TombstoneAt = max(have.TombstoneAt, w.TombstoneAt)
		}
		mark = &m
	}
	a, err := st.NewApplier(ctx)
	if err != nil {
		return h, rep, err
	}
	if f, err = open(); err != nil {
		return h, rep, err
	}
	defer f.Close()
	// Rows and the word index first, the trigram index in one pass after
	// (as `recall import` does): about twice the rate.
	st.SetDeferTrigram(true)
	_, err = Apply(f, a)
	if err == nil {
		rep, err = a.Finish(mark)
	}
	st.SetDeferTrigram(false)
	if err != nil {
		return h, rep, err
	}
	return h, rep, st.IndexDeferredTrigram(ctx, nil)
}
