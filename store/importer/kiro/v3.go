package kiro

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer"
	"github.com/recall-dev/recall/store/importer/internal/textutil"
)

// sessionJSON is the session.json beside a shared-store session's
// messages.jsonl.
type sessionJSON struct {
	ID             string   `json:"id"`
	Title          string   `json:"title"`
	WorkspacePaths []string `json:"workspacePaths"`
	RootPaths      []string `json:"rootPaths"`
	CreatedAt      string   `json:"createdAt"`
	LastModifiedAt string   `json:"lastModifiedAt"`
	ModelID        string   `json:"modelId"`
}

// importV3 brings one session of the shared store up to date, with its
// session.json.
func importV3(ctx context.Context, st *store.Store, file string) (importer.Report, error) {
	dir := filepath.Dir(file)
	var sj sessionJSON
	if raw, err := os.ReadFile(filepath.Join(dir, "session.json")); err == nil {
		_ = json.Unmarshal(raw, &sj) // rewritten whole; a missing or torn one leaves the messages
	}
	sess := store.Session{ID: sj.ID, Source: SourceName, Title: textutil.Title(sj.Title), Model: sj.ModelID,
		StartedAt: textutil.ParseTime(sj.CreatedAt), EndedAt: textutil.ParseTime(sj.LastModifiedAt)}
	if sess.ID == "" {
		sess.ID = filepath.Base(dir)
	}
	if sess.Model == "auto" {
		sess.Model = ""
	}
	for _, paths := range [][]string{sj.WorkspacePaths, sj.RootPaths} {
		if len(paths) > 0 && sess.Cwd == "" {
			sess.Cwd = paths[0]
		}
	}
	return importer.ImportLines(ctx, st, SourceName, file, func() importer.LineParser {
		return &v3Parser{sess: sess}
	})
}

// v3Line is one line of messages.jsonl.
type v3Line struct {
	ID        string          `json:"id"`
	Timestamp string          `json:"timestamp"`
	Payload   json.RawMessage `json:"payload"`
}

// v3Payload is the union of the payloads recall reads.
type v3Payload struct {
	Type          string          `json:"type"`
	Content       json.RawMessage `json:"content"`
	OperationType string          `json:"operationType"`
	ToolCallID    string          `json:"toolCallId"`
	ToolName      string          `json:"toolName"`
	Args          json.RawMessage `json:"args"`
	Success       *bool           `json:"success"`
	StopReason    string          `json:"stopReason"`
}

// v3Open is the assistant message a turn is writing: its text, reasoning
// and tool calls arrive as separate lines and end at a tool result, the
// next prompt or the turn's end.
type v3Open struct {
	Key   string              `json:"k"`
	Time  string              `json:"t"`
	Text  []string            `json:"x,omitempty"`
	Think []string            `json:"h,omitempty"`
	Calls []textutil.ToolCall `json:"c,omitempty"`
	// Written is set when an import stopped with the message open and
	// stored it as it was: more of it makes the file be read again.
	Written bool `json:"w,omitempty"`
}

// v3State is what an import keeps for the next one.
type v3State struct {
	Open  *v3Open   `json:"o,omitempty"`
	Tools toolNames `json:"t,omitempty"` // tool call id -> name
	First string    `json:"f,omitempty"` // the first prompt, for a session with no title
}

type v3Parser struct {
	sess store.Session
	st   v3State
	msgs []store.Message
}

// Restore loads the saved state.
func (p *v3Parser) Restore(raw json.RawMessage) error { return json.Unmarshal(raw, &p.st) }

// Line reads one entry.
func (p *v3Parser) Line(text []byte, t *importer.Tally) error {
	var l v3Line
	if err := json.Unmarshal(text, &l); err != nil {
		t.Malformed("%s", importer.DecodeProblem(err))
		return nil
	}
	var pl v3Payload
	if err := json.Unmarshal(l.Payload, &pl); err != nil || pl.Type == "" {
		t.Malformed("%s", importer.MissingField("Kiro session entry", "payload.type", text))
		return nil
	}
	key := l.ID
	if key == "" {
		key = "L" + strconv.Itoa(t.Line)
	}
	switch pl.Type {
	case "user":
		p.flush("")
		content := textutil.FlattenParts(pl.Content)
		if strings.TrimSpace(content) == "" {
			t.Skip()
			return nil
		}
		if p.st.First == "" {
			p.st.First = content
		}
		p.msgs = append(p.msgs, store.Message{SessionID: p.sess.ID, Role: "user", Content: content,
			Timestamp: textutil.ParseTime(l.Timestamp), SourceKey: key})
	case "assistant":
		content := textutil.FlattenParts(pl.Content)
		if strings.TrimSpace(content) == "" || content == "..." {
			t.Skip() // the placeholder shown while the answer streams
			return nil
		}
		o := p.open(key, l.Timestamp)
		if o.Written {
			return importer.ErrRestart
		}
		if pl.OperationType == "Reasoning" {
			o.Think = append(o.Think, content)
		} else {
			o.Text = append(o.Text, content)
		}
	case "tool_call":
		o := p.open(key, l.Timestamp)
		if o.Written {
			return importer.ErrRestart
		}
		o.Calls = append(o.Calls, textutil.NewToolCall(pl.ToolCallID, pl.ToolName, pl.Args))
		p.st.Tools.set(pl.ToolCallID, pl.ToolName)
	case "tool_result":
		p.flush("")
		row := store.Message{SessionID: p.sess.ID, Role: "tool", Content: textutil.FlattenParts(pl.Content), ToolCallID: pl.ToolCallID,
			ToolName: p.st.Tools[pl.ToolCallID], Timestamp: textutil.ParseTime(l.Timestamp), SourceKey: key}
		if pl.Success != nil && !*pl.Success {
			row.FinishReason = "error"
		}
		p.msgs = append(p.msgs, row)
	case "turn_end":
		p.flush(pl.StopReason)
		t.Skip()
	default:
		t.Skip() // turn_start, usage_summary (credits), session_metadata, hook notices, ...
	}
	return nil
}

// open is the assistant message being written, begun if none is.
func (p *v3Parser) open(key, ts string) *v3Open {
	if p.st.Open == nil {
		p.st.Open = &v3Open{Key: key, Time: ts}
	}
	return p.st.Open
}

// flush writes the open assistant message.
func (p *v3Parser) flush(finish string) {
	o := p.st.Open
	if o == nil {
		return
	}
	p.st.Open = nil
	if o.Written {
		return // stored by the last import, whole as it turned out
	}
	p.msgs = append(p.msgs, store.Message{SessionID: p.sess.ID, Role: "assistant", Content: textutil.Join("\n\n", o.Text...),
		Reasoning: textutil.Join("\n\n", o.Think...), ToolCalls: textutil.ToolCallsJSON(o.Calls), FinishReason: finish,
		Timestamp: textutil.ParseTime(o.Time), SourceKey: o.Key})
}

// Result is the session with its session.json and the new messages.
func (p *v3Parser) Result() importer.Result {
	s := p.sess
	if s.Title == "" {
		s.Title = textutil.Title(p.st.First)
	}
	if o := p.st.Open; o != nil && !o.Written {
		// The file ends inside an answer (Kiro still writing, or stopped):
		// store it now; more of it later reads the file again.
		p.flush("")
		o.Written = true
		p.st.Open = o
	}
	msgs := p.msgs
	p.msgs = nil
	return importer.Result{Sessions: []store.Session{s}, Overwrite: true, Messages: msgs, State: &p.st}
}

// toolNames maps tool call ids to their tools' names, for the results.
type toolNames map[string]string

func (t *toolNames) set(id, name string) {
	if *t == nil {
		*t = toolNames{}
	}
	(*t)[id] = name
}
