// Package jsonl imports recall's generic interchange format: one message per
// line, each naming its session; sessions are created on first sight.
//
//	{"session_id":"s1","role":"user","content":"hi","timestamp":"2026-07-17T09:00:00Z"}
//
// Required: session_id, role, content, timestamp (RFC 3339 or Unix seconds).
// Optional: source, model, title, parent_session_id, cwd (the directory the
// session ran in: recall --here and pick --resume's cd use it), git_branch,
// tool_name, tool_calls (a JSON string or any JSON value, stored as JSON
// text), tool_call_id, token_count, finish_reason, reasoning. Session
// fields are taken from the first record of the session that has them.
package jsonl

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer"
	"github.com/recall-dev/recall/store/importer/internal/lines"
)

// SourceName is the session source given to sessions without a "source" field.
const SourceName = "jsonl"

func init() { importer.Register(Source{}) }

// Source is the generic JSONL format.
type Source struct{}

// Name is "jsonl".
func (Source) Name() string { return SourceName }

// DefaultPaths is empty: generic files are always named explicitly.
func (Source) DefaultPaths() []string { return nil }

// Discover returns the named files, and the *.jsonl files in named
// directories; a path that does not exist is skipped.
func (Source) Discover(paths []string) ([]string, error) {
	var out []string
	files, dirs, err := importer.SplitPaths(paths)
	if err != nil {
		return nil, err
	}
	out = append(out, files...)
	for _, p := range dirs {
		m, err := filepath.Glob(filepath.Join(p, "*.jsonl"))
		if err != nil {
			return nil, fmt.Errorf("list %s: %w", p, err)
		}
		out = append(out, m...)
	}
	return out, nil
}

// Import brings one file up to date (only lines after the last import).
func (Source) Import(ctx context.Context, st *store.Store, file string) (importer.Report, error) {
	return importer.ImportLines(ctx, st, SourceName, file, func() importer.LineParser { return NewParser() })
}

// batchSize bounds the messages per transaction when reading a stream.
const batchSize = 5000

// ImportReader imports a stream that has no file to remember (standard
// input), committing every few thousand messages; message keys make a
// repeated import add nothing. name labels problems ("-" for stdin).
func ImportReader(ctx context.Context, st *store.Store, name string, r io.Reader) (importer.Report, error) {
	var rep importer.Report
	p := NewParser()
	t := importer.NewTally(&rep, name)
	flush := func() error {
		res := p.Result()
		res.Messages = importer.DropTooLarge(res.Messages, name, &rep)
		if len(res.Messages) == 0 && len(res.Sessions) == 0 {
			return nil
		}
		var n int
		t0 := time.Now()
		err := st.Write(ctx, func(tx *store.Tx) error {
			if err := importer.WriteSessions(tx, res.Sessions, false); err != nil {
				return err
			}
			var err error
			n, err = tx.InsertMessages(res.Messages)
			return err
		})
		if err != nil {
			return fmt.Errorf("import %s: %w", name, err)
		}
		rep.WriteTime += time.Since(t0)
		rep.Messages += n
		rep.Sessions += len(res.Sessions)
		p.reset()
		return nil
	}
	lr := importer.NewLineReader(r, 0, 0)
	t0 := time.Now()
	for lr.Next() {
		l := lr.Line()
		t.Line = l.No
		if l.TooLong {
			importer.TooLong(t, l)
			continue
		}
		if lines.Blank(l.Text) {
			continue
		}
		if err := p.Line(l.Text, t); err != nil {
			return rep, err
		}
		if len(p.msgs) >= batchSize {
			rep.ParseTime += time.Since(t0)
			if err := flush(); err != nil {
				return rep, err
			}
			t0 = time.Now()
		}
	}
	if err := lr.Err(); err != nil {
		return rep, fmt.Errorf("read %s: %w", name, err)
	}
	rep.ParseTime += time.Since(t0)
	if err := flush(); err != nil {
		return rep, err
	}
	rep.Files = 1
	return rep, nil
}

// record is one line as written.
type record struct {
	SessionID       *string         `json:"session_id"`
	Role            *string         `json:"role"`
	Content         json.RawMessage `json:"content"`
	Timestamp       json.RawMessage `json:"timestamp"`
	Source          string          `json:"source"`
	Model           string          `json:"model"`
	Title           string          `json:"title"`
	ParentSessionID string          `json:"parent_session_id"`
	Cwd             string          `json:"cwd"`
	GitBranch       string          `json:"git_branch"`
	ToolName        string          `json:"tool_name"`
	ToolCalls       json.RawMessage `json:"tool_calls"`
	ToolCallID      string          `json:"tool_call_id"`
	TokenCount      json.Number     `json:"token_count"`
	FinishReason    string          `json:"finish_reason"`
	Reasoning       string          `json:"reasoning"`
}

// Parser turns generic JSONL lines into sessions and messages.
//
// A session is its source and id: records of two sources naming the same
// session_id are two sessions (the store gives the second a qualified id).
// A record without a source belongs to the session of its id the file
// named last, else to source "jsonl".
type Parser struct {
	sessions map[sessionKey]int // -> index in order
	order    []store.Session
	msgs     []store.Message
	// sources is the source each session id was last named with in the
	// file, kept with the cursor so that appended records without a
	// source join it.
	sources map[string]string
}

type sessionKey struct{ source, id string }

// NewParser returns an empty parser.
func NewParser() *Parser {
	return &Parser{sessions: map[sessionKey]int{}, sources: map[string]string{}}
}

func (p *Parser) reset() {
	p.sessions = map[sessionKey]int{}
	p.order = p.order[:0]
	p.msgs = p.msgs[:0]
}

// parserState is what Restore reads back: the sessions' sources, by id,
// where a record named one.
type parserState struct {
	Sources map[string]string `json:"s,omitempty"`
}

// Restore reads the sources the file named its sessions with; message
// keys, not parser state, make appends safe.
func (p *Parser) Restore(raw json.RawMessage) error {
	if len(raw) == 0 {
		return nil
	}
	var st parserState
	if err := json.Unmarshal(raw, &st); err != nil {
		return err
	}
	for id, src := range st.Sources {
		p.sources[id] = src
	}
	return nil
}

// Result returns the sessions first seen in (or named by) the lines read, to
// be created with their first-sight metadata, and the messages.
func (p *Parser) Result() importer.Result {
	var state any
	if len(p.sources) > 0 {
		state = parserState{Sources: p.sources}
	}
	return importer.Result{Sessions: append([]store.Session(nil), p.order...), Messages: p.msgs, State: state}
}

var roles = map[string]bool{"user": true, "assistant": true, "tool": true, "system": true}

// Line parses one record; a malformed one is reported and skipped.
func (p *Parser) Line(text []byte, t *importer.Tally) error {
	var r record
	dec := json.NewDecoder(bytes.NewReader(text))
	dec.UseNumber()
	if err := dec.Decode(&r); err != nil {
		t.Malformed("%s", importer.DecodeProblem(err))
		return nil
	}
	switch {
	case r.SessionID == nil:
		t.Malformed("%s", importer.MissingField("record", "session_id", text))
		return nil
	case strings.TrimSpace(*r.SessionID) == "":
		t.Malformed("empty session_id")
		return nil
	case r.Role == nil:
		t.Malformed("%s", importer.MissingField("record", "role", text))
		return nil
	case !roles[*r.Role]:
		t.Malformed("unknown role %q", *r.Role)
		return nil
	case r.Content == nil:
		t.Malformed("%s", importer.MissingField("record", "content", text))
		return nil
	case r.Timestamp == nil:
		t.Malformed("%s", importer.MissingField("record", "timestamp", text))
		return nil
	}
	content, ok := contentText(r.Content)
	if !ok {
		t.Malformed("content is not a string")
		return nil
	}
	ts, err := ParseTime(r.Timestamp)
	if err != nil {
		t.Malformed("bad timestamp: %v", err)
		return nil
	}
	toolCalls, err := toolCallsText(r.ToolCalls)
	if err != nil {
		t.Malformed("bad tool_calls: %v", err)
		return nil
	}
	tokens := 0
	if r.TokenCount != "" {
		n, err := strconv.Atoi(string(r.TokenCount))
		if err != nil {
			t.Malformed("bad token_count %q", r.TokenCount)
			return nil
		}
		tokens = n
	}
	sid := *r.SessionID
	src := r.Source
	switch {
	case src != "":
		p.sources[sid] = src
	case p.sources[sid] != "":
		src = p.sources[sid]
	default:
		src = SourceName
	}
	if i, ok := p.sessions[sessionKey{src, sid}]; ok {
		s := &p.order[i]
		if s.Title == "" {
			s.Title = r.Title
		}
		if s.Model == "" {
			s.Model = r.Model
		}
		if s.ParentID == "" {
			s.ParentID = r.ParentSessionID
		}
		if s.Cwd == "" {
			s.Cwd = r.Cwd
		}
		if s.GitBranch == "" {
			s.GitBranch = r.GitBranch
		}
	} else {
		p.sessions[sessionKey{src, sid}] = len(p.order)
		p.order = append(p.order, store.Session{
			ID: sid, Source: src, Model: r.Model, Title: r.Title,
			ParentID: r.ParentSessionID, StartedAt: ts, Cwd: r.Cwd, GitBranch: r.GitBranch,
		})
	}
	m := store.Message{
		SessionID: sid, Source: src, Role: *r.Role, Content: content, ToolCallID: r.ToolCallID,
		ToolCalls: toolCalls, ToolName: r.ToolName, Timestamp: ts, TokenCount: tokens,
		FinishReason: r.FinishReason, Reasoning: r.Reasoning,
	}
	m.SourceKey = Key(m)
	p.msgs = append(p.msgs, m)
	return nil
}

// Key identifies a generic message by its content: the same line imported
// twice (or from two copies of a file) is stored once.
func Key(m store.Message) string {
	h := sha256.New()
	for _, s := range []string{m.SessionID, m.Role, strconv.FormatInt(m.Timestamp.UnixNano(), 10), m.Content, m.ToolCallID, m.ToolCalls} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	return "jsonl:" + hex.EncodeToString(h.Sum(nil)[:16])
}

// contentText accepts a string, or a list of {"type":"text","text":...}
// parts (flattened), as message content.
func contentText(raw json.RawMessage) (string, bool) {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s, true
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &parts) != nil {
		return "", false
	}
	var texts []string
	for _, pt := range parts {
		if pt.Text != "" {
			texts = append(texts, pt.Text)
		}
	}
	return strings.Join(texts, "\n"), true
}

// toolCallsText stores a JSON string verbatim and any other JSON value as
// compact JSON text; null and empty become "".
func toolCallsText(raw json.RawMessage) (string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s, nil
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil {
		return "", err
	}
	return buf.String(), nil
}

// ParseTime reads an RFC 3339 string or a Unix time in seconds (a number,
// or a numeric string; values too large for seconds are taken as
// milliseconds).
func ParseTime(raw json.RawMessage) (time.Time, error) {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
			return t, nil
		}
		if _, err := strconv.ParseFloat(s, 64); err != nil {
			return time.Time{}, fmt.Errorf("%q is neither RFC 3339 nor Unix seconds", s)
		}
		raw = json.RawMessage(s)
	}
	f, err := strconv.ParseFloat(string(raw), 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) || f < 0 {
		return time.Time{}, fmt.Errorf("%s is neither RFC 3339 nor Unix seconds", raw)
	}
	if f > 1e11 { // milliseconds (a seconds value this large is past year 5000)
		f /= 1000
	}
	sec, frac := math.Modf(f)
	return time.Unix(int64(sec), int64(frac*1e9)).UTC(), nil
}
