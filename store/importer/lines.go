package importer

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer/internal/lines"
)

// ErrRestart is returned by a LineParser whose saved state cannot continue
// with the new lines (for example an assistant reply split over lines that
// the last import saw only half of): the file is then re-imported in full.
var ErrRestart = errors.New("restart from the beginning of the file")

// LineParser turns the lines of one JSONL file into sessions and messages.
// A new parser is made for every attempt, so it may keep any state.
type LineParser interface {
	// Restore loads the state a previous import saved with its cursor.
	Restore(state json.RawMessage) error
	// Line handles one line. A malformed or skipped record is reported
	// through t; an error stops the file (ErrRestart asks for a full
	// re-import).
	Line(text []byte, t *Tally) error
	// Result is what the lines produced: the sessions (with their full
	// current metadata when Overwrite is set), the new messages, and the
	// state to save for the next import.
	Result() Result
}

// Versioned is implemented by a LineParser whose output for the same
// lines changed between recall versions: its Version is saved with the
// import state, and a file saved under another version is read again in
// full (its old rows replaced), even when the file itself did not change.
type Versioned interface {
	Version() int
}

// Claimer is implemented by a LineParser whose file takes its session over
// from another file of the same source that held the same conversation
// (Kiro CLI's JSONL journal of a conversation its data.sqlite3 keeps too,
// Antigravity's full transcript beside the truncated one): Claim runs in
// the import's transaction after the batch's sessions are written and
// before its messages (msgs) are, so the other file's rows go and these
// come in one commit, or neither does.
type Claimer interface {
	Claim(tx *store.Tx, p Plan, msgs []store.Message) error
}

// Result is what a LineParser produced from one file.
type Result struct {
	Sessions  []store.Session
	Overwrite bool
	Messages  []store.Message
	State     any
}

// Tally is how a parser reports the records it did not import.
type Tally struct {
	rep  *Report
	file string
	// Line is the 1-based number of the line being parsed.
	Line int
}

// Malformed counts a record that could not be parsed and notes file:line.
func (t *Tally) Malformed(format string, a ...any) { t.rep.Problemf(t.file, t.Line, format, a...) }

// Skip counts a record skipped on purpose, and why: the record's type
// when the agent keeps it for itself ("progress", "file-history-snapshot"),
// else a short plural phrase ("empty messages", "system prompts"). The
// import's summary groups the skipped records by it.
func (t *Tally) Skip(why ...string) { t.rep.Skip(strings.Join(why, " ")) }

// NewTally returns a Tally adding to rep for file (for parsers used outside
// ImportLines, such as a whole-file format or standard input).
func NewTally(rep *Report, file string) *Tally { return &Tally{rep: rep, file: file} }

// IncompleteLine is the problem of a torn last line: an agent is still
// writing it, so it is counted but is no sign of a wrong file.
const IncompleteLine = "incomplete last line (left for the next import)"

// tornGrace is how recently a file must have changed for its torn last
// line to be taken for a record still being written (agents append a
// record in one write; a torn line older than this is a stopped writer).
const tornGrace = 10 * time.Minute

// beingWritten reports a file modified within tornGrace before now (a
// minute of clock skew allowed after it).
func beingWritten(mod, now time.Time) bool {
	return !mod.Before(now.Add(-tornGrace)) && !mod.After(now.Add(time.Minute))
}

// MaxLineBytes is the longest line an importer reads: a record longer than
// the largest message the store keeps (store.MaxMessageBytes) plus room for
// its JSON envelope cannot be stored, so it is read past in a bounded buffer
// and reported, and the file's other records are imported.
const MaxLineBytes = store.MaxMessageBytes + 64<<10

// NewLineReader reads a source's lines with MaxLineBytes as the limit.
func NewLineReader(r io.Reader, base int64, baseLine int) *lines.Reader {
	lr := lines.NewReader(r, base, baseLine)
	lr.SetLimit(MaxLineBytes)
	return lr
}

// TooLong reports a line longer than MaxLineBytes, at t's line.
func TooLong(t *Tally, l lines.Line) {
	t.Malformed("record is %s, more than the %s recall stores: skipped (the file's other records are imported)", mb(l.End-l.Start), mb(int64(store.MaxMessageBytes)))
}

func mb(n int64) string { return fmt.Sprintf("%.1f MB", float64(n)/(1<<20)) }

// ImportLines brings one JSONL file up to date: it reads only the lines
// after the saved cursor when the file grew, re-reads it in full when it
// shrank or changed, and writes messages, sessions and the new cursor in one
// transaction. A torn last line (no newline, not valid JSON) is left for the
// next import.
func ImportLines(ctx context.Context, st *store.Store, source, path string, newParser func() LineParser) (Report, error) {
	var rep Report
	err := st.Write(ctx, func(tx *store.Tx) error {
		rep = Report{}
		p, err := PlanFile(tx, source, path, false)
		if err != nil {
			return err
		}
		if p.Seen {
			if v, ok := newParser().(Versioned); ok && p.Version != v.Version() {
				p.Unchanged, p.Full, p.From, p.Parser = false, true, Cursor{}, nil
			}
		}
		if p.Unchanged {
			rep.Unchanged = 1
			return nil
		}
		for {
			t0 := time.Now()
			parser := newParser()
			var b Batch
			var r Report
			err := parseLines(ctx, p, parser, &b, &r)
			if errors.Is(err, ErrRestart) && !p.Full {
				p.Full, p.From, p.Parser = true, Cursor{}, nil
				continue
			}
			if err != nil {
				return err
			}
			t1 := time.Now()
			if !p.Full && len(b.Messages) == 0 && b.Cursor.Offset == p.From.Offset {
				// Only the mtime moved (or a torn line is still being written).
				if err := MarkUnchanged(tx, p); err != nil {
					return err
				}
				r.Unchanged = 1
				r.ParseTime = t1.Sub(t0)
				rep = r
				return nil
			}
			b.Messages = DropTooLarge(b.Messages, p.Path, &r)
			if c, ok := parser.(Claimer); ok {
				plan := p
				b.Claim = func(tx *store.Tx) error { return c.Claim(tx, plan, b.Messages) }
			}
			n, err := Commit(tx, p, b)
			if err != nil {
				return err
			}
			r.Files = 1
			r.Messages = n
			r.Sessions = len(b.Sessions)
			r.ParseTime = t1.Sub(t0)
			r.WriteTime = time.Since(t1)
			rep = r
			return nil
		}
	})
	return rep, err
}

func parseLines(ctx context.Context, p Plan, parser LineParser, b *Batch, rep *Report) error {
	if !p.Full {
		if err := parser.Restore(p.Parser); err != nil {
			return ErrRestart
		}
	}
	f, err := OpenRegular(p.Path)
	if err != nil {
		return err
	}
	defer f.Close()
	if _, err := f.Seek(p.From.Offset, 0); err != nil {
		return fmt.Errorf("seek %s: %w", p.Path, err)
	}
	lr := NewLineReader(f, p.From.Offset, p.From.Line)
	off, line := p.From.Offset, p.From.Line
	t := &Tally{rep: rep, file: p.Path}
	for lr.Next() {
		l := lr.Line()
		if l.No%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		if l.TooLong && !l.Terminated {
			// Still being written, and already more than a record may be.
			rep.Problemf(p.Path, l.No, "the last line is %s with no newline yet, more than the %s a record may be: left unread", mb(l.End-l.Start), mb(MaxLineBytes))
			break
		}
		if !l.Terminated && !json.Valid(l.Text) {
			if !lines.Blank(l.Text) && !beingWritten(p.ModTime, time.Now()) {
				// A writer that stopped mid-record long ago: say so. One
				// still at work finishes the line, and the next import
				// takes it; that is no problem of the file.
				rep.Problemf(p.Path, l.No, IncompleteLine)
			}
			break
		}
		if l.No == 1 && l.Start == 0 && !json.Valid(l.Text) && IsWholeDocument(p.Path) {
			// Each of its lines would read as "invalid JSON": say once
			// what the file is instead.
			rep.Problemf(p.Path, 1, "the file is one JSON document, not JSON Lines (one record per line): not %s", FormatOf(p.Source).What)
			break
		}
		if l.TooLong {
			t.Line = l.No
			TooLong(t, l)
		} else if !lines.Blank(l.Text) {
			t.Line = l.No
			if err := parser.Line(l.Text, t); err != nil {
				if errors.Is(err, ErrRestart) {
					return err
				}
				return fmt.Errorf("%s:%d: %w", p.Path, l.No, err)
			}
		}
		off, line = l.End, l.No
		if !l.Terminated {
			// A complete last record without its newline: the newline the
			// writer adds next ends this same line, so the next import
			// must count from the line before.
			line = l.No - 1
		}
	}
	if err := lr.Err(); err != nil {
		return fmt.Errorf("read %s: %w", p.Path, err)
	}
	cur, err := CursorAt(p.Path, off, line)
	if err != nil {
		return err
	}
	b.Cursor = cur
	res := parser.Result()
	b.Sessions, b.Messages, b.Parser, b.Overwrite = res.Sessions, res.Messages, res.State, res.Overwrite
	if v, ok := parser.(Versioned); ok {
		b.Version = v.Version()
	}
	return nil
}

// ImportWhole brings a file that is only ever read in full up to date: a
// compressed stream, a whole-file JSON document (open converts it to
// lines), or a log whose later lines rewrite earlier ones. Any change to the
// file re-imports it cleanly in one transaction.
func ImportWhole(ctx context.Context, st *store.Store, source, path string, open func() (io.ReadCloser, error), newParser func() LineParser) (Report, error) {
	var rep Report
	err := st.Write(ctx, func(tx *store.Tx) error {
		rep = Report{}
		p, err := PlanFile(tx, source, path, true)
		if err != nil {
			return err
		}
		parser := newParser()
		version := 0
		if v, ok := parser.(Versioned); ok {
			version = v.Version()
		}
		// A file an older parser read is read again even when unchanged.
		if p.Unchanged && !(p.Seen && version != p.Version) {
			rep.Unchanged = 1
			return nil
		}
		p.Full = true
		t0 := time.Now()
		rc, err := open()
		if err != nil {
			return err
		}
		defer rc.Close()
		var r Report
		t := &Tally{rep: &r, file: path}
		lr := NewLineReader(rc, 0, 0)
		var off int64
		line := 0
		for lr.Next() {
			l := lr.Line()
			if l.No%4096 == 0 {
				if err := ctx.Err(); err != nil {
					return err
				}
			}
			off, line = l.End, l.No
			t.Line = l.No
			if l.TooLong {
				TooLong(t, l)
				continue
			}
			if lines.Blank(l.Text) {
				continue
			}
			if err := parser.Line(l.Text, t); err != nil {
				return fmt.Errorf("%s:%d: %w", path, l.No, err)
			}
		}
		if err := lr.Err(); err != nil {
			return fmt.Errorf("read %s: %w", path, err)
		}
		res := parser.Result()
		t1 := time.Now()
		n, err := Commit(tx, p, Batch{
			Sessions: res.Sessions, Overwrite: res.Overwrite, Messages: DropTooLarge(res.Messages, path, &r),
			Cursor: Cursor{Offset: off, Line: line}, Version: version,
		})
		if err != nil {
			return err
		}
		r.Files, r.Messages, r.Sessions = 1, n, len(res.Sessions)
		r.ParseTime, r.WriteTime = t1.Sub(t0), time.Since(t1)
		rep = r
		return nil
	})
	return rep, err
}
