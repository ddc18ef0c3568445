package kiro

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer"
	"github.com/recall-dev/recall/store/importer/internal/export"
	"github.com/recall-dev/recall/store/importer/internal/textutil"
)

// sidecar is the <id>.json kiro-cli keeps beside a session's journal
// (rewritten whole after each turn).
type sidecar struct {
	SessionID string `json:"session_id"`
	Cwd       string `json:"cwd"`
	Title     string `json:"title"`
	CreatedAt string `json:"created_at"`
	UpdatedAt string `json:"updated_at"`
	Parent    string `json:"parent_session_id"`
	State     struct {
		Model struct {
			Info *struct {
				ModelID string `json:"model_id"`
			} `json:"model_info"`
		} `json:"rts_model_state"`
		Meta struct {
			Turns []struct {
				End       string `json:"end_timestamp"`
				Model     string `json:"model"`
				In        int64  `json:"input_token_count"`
				Out       int64  `json:"output_token_count"`
				CacheRead int64  `json:"cache_read_input_token_count"`
			} `json:"user_turn_metadatas"`
		} `json:"conversation_metadata"`
	} `json:"session_state"`
}

// importCLI brings one kiro-cli journal up to date, with its sidecar.
func importCLI(ctx context.Context, st *store.Store, file string) (importer.Report, error) {
	var sc sidecar
	if raw, err := os.ReadFile(strings.TrimSuffix(file, ".jsonl") + ".json"); err == nil {
		_ = json.Unmarshal(raw, &sc) // rewritten whole; a missing or torn one leaves the journal
	}
	sess := store.Session{ID: sc.SessionID, Source: SourceName, ParentID: sc.Parent, Cwd: sc.Cwd,
		StartedAt: textutil.ParseTime(sc.CreatedAt), EndedAt: textutil.ParseTime(sc.UpdatedAt)}
	if sess.ID == "" {
		sess.ID = textutil.IDFromName(file)
	}
	if sc.Parent != "" {
		sess.ModelConfig = textutil.DelegatedFrom(sc.Parent)
	}
	if sc.State.Model.Info != nil {
		sess.Model = sc.State.Model.Info.ModelID
	}
	var ends []time.Time
	for _, t := range sc.State.Meta.Turns {
		ends = append(ends, textutil.ParseTime(t.End))
		sess.InputTokens += t.In
		sess.OutputTokens += t.Out
		sess.CacheReadTokens += t.CacheRead
		if sess.Model == "" || sess.Model == "auto" {
			sess.Model = t.Model
		}
	}
	if sess.Model == "auto" {
		sess.Model = "" // the CLI picks one per request; no model to record
	}
	return importer.ImportLines(ctx, st, SourceName, file, func() importer.LineParser {
		return &cliParser{sess: sess, title: textutil.Title(sc.Title), ends: ends, file: file}
	})
}

// cliRecord is one line of a journal: {"version": "v1", "kind", "data"}.
type cliRecord struct {
	Kind string          `json:"kind"`
	Data *cliData        `json:"data"`
	Time json.RawMessage `json:"timestamp"`
}

type cliData struct {
	MessageID string     `json:"message_id"`
	Content   []cliBlock `json:"content"`
	Meta      *struct {
		Timestamp json.RawMessage `json:"timestamp"`
	} `json:"meta"`
}

// cliBlock is {"kind": "text" | "thinking" | "toolUse" | "toolResult" | ..., "data"}.
type cliBlock struct {
	Kind string          `json:"kind"`
	Data json.RawMessage `json:"data"`
}

// cliState is what an import keeps for the next one.
type cliState struct {
	Tools   toolNames `json:"t,omitempty"` // tool use id -> name
	Prompts int       `json:"n,omitempty"` // prompts read (the turn being answered)
	Asked   int64     `json:"a,omitempty"` // the last prompt's time, Unix ms
	Rows    int       `json:"r,omitempty"`
	First   string    `json:"f,omitempty"` // the first prompt, for a session with no title
}

type cliParser struct {
	sess  store.Session
	title string
	ends  []time.Time // each turn's end, from the sidecar
	file  string
	st    cliState
	msgs  []store.Message
}

// Restore loads the saved state.
func (p *cliParser) Restore(raw json.RawMessage) error { return json.Unmarshal(raw, &p.st) }

// Line reads one record.
func (p *cliParser) Line(text []byte, t *importer.Tally) error {
	var r cliRecord
	if err := json.Unmarshal(text, &r); err != nil {
		t.Malformed("%s", importer.DecodeProblem(err))
		return nil
	}
	if r.Kind == "" || r.Data == nil {
		t.Malformed("%s", importer.MissingField("Kiro session record", "kind", text))
		return nil
	}
	key := r.Data.MessageID
	if key == "" {
		key = "L" + strconv.Itoa(t.Line)
	}
	switch r.Kind {
	case "Prompt":
		at := unixTime(r.Time)
		if at.IsZero() && r.Data.Meta != nil {
			at = unixTime(r.Data.Meta.Timestamp)
		}
		p.st.Prompts++
		if !at.IsZero() {
			p.st.Asked = at.UnixMilli()
		}
		text := blocksText(r.Data.Content)
		if strings.TrimSpace(text) == "" {
			t.Skip()
			return nil
		}
		row := store.Message{SessionID: p.sess.ID, Role: "user", Content: text, Timestamp: at, SourceKey: key}
		if p.sess.ParentID != "" && p.st.Rows == 0 {
			row.DisplayKind = store.DisplayKindAgent // a sub-agent's task, written by its parent
		}
		if p.st.First == "" {
			p.st.First = text // the title of a session that has none (a sub-agent's: its task)
		}
		p.add(row)
	case "AssistantMessage":
		var text, think []string
		var calls []textutil.ToolCall
		for _, b := range r.Data.Content {
			switch b.Kind {
			case "text":
				text = append(text, blockString(b.Data))
			case "thinking":
				var th struct {
					Text string `json:"text"`
				}
				if json.Unmarshal(b.Data, &th) == nil {
					think = append(think, th.Text)
				}
			case "toolUse":
				var u struct {
					ID    string          `json:"toolUseId"`
					Name  string          `json:"name"`
					Input json.RawMessage `json:"input"`
				}
				if json.Unmarshal(b.Data, &u) == nil && u.Name != "" {
					calls = append(calls, textutil.NewToolCall(u.ID, u.Name, u.Input))
					p.st.Tools.set(u.ID, u.Name)
				}
			}
		}
		row := store.Message{SessionID: p.sess.ID, Role: "assistant", Content: textutil.Join("\n\n", text...),
			Reasoning: textutil.Join("\n\n", think...), ToolCalls: textutil.ToolCallsJSON(calls), Timestamp: p.answered(), SourceKey: key}
		if row.Content == "" && row.Reasoning == "" && row.ToolCalls == "" {
			t.Skip()
			return nil
		}
		p.add(row)
	case "ToolResults":
		for i, b := range r.Data.Content {
			if b.Kind != "toolResult" {
				continue
			}
			var res struct {
				ID      string     `json:"toolUseId"`
				Content []cliBlock `json:"content"`
				Status  string     `json:"status"`
			}
			if err := json.Unmarshal(b.Data, &res); err != nil {
				t.Malformed("tool result: %s", importer.DecodeProblem(err))
				continue
			}
			row := store.Message{SessionID: p.sess.ID, Role: "tool", Content: blocksText(res.Content), ToolCallID: res.ID,
				ToolName: p.st.Tools[res.ID], Timestamp: p.answered(), SourceKey: fmt.Sprintf("%s#%d", key, i)}
			if strings.EqualFold(res.Status, "error") {
				row.FinishReason = "error"
			}
			p.add(row)
		}
	default:
		t.Skip() // records recall does not show (compaction bookkeeping, ...)
	}
	return nil
}

func (p *cliParser) add(m store.Message) {
	p.st.Rows++
	p.msgs = append(p.msgs, m)
}

// answered is the time of an answer in the current turn: kiro-cli writes no
// time on it, so the turn's end from the sidecar, else the prompt's time.
func (p *cliParser) answered() time.Time {
	asked := time.UnixMilli(p.st.Asked).UTC()
	if p.st.Asked == 0 {
		asked = time.Time{}
	}
	if n := p.st.Prompts; n >= 1 && n <= len(p.ends) && !p.ends[n-1].IsZero() && !p.ends[n-1].Before(asked) {
		return p.ends[n-1]
	}
	return asked
}

// Result is the session with its sidecar's metadata and the new messages.
func (p *cliParser) Result() importer.Result {
	s := p.sess
	s.Title = p.title
	if s.Title == "" {
		s.Title = textutil.Title(p.st.First)
	}
	msgs := p.msgs
	p.msgs = nil
	return importer.Result{Sessions: []store.Session{s}, Overwrite: true, Messages: msgs, State: &p.st}
}

// Claim makes the journal the one source of its conversation: a copy
// data.sqlite3 gave recall before is replaced by the journal's rows (msgs),
// what only that copy held staying (store.Tx.ReplaceCopy: turns from
// before the journal began, a compaction summary), and the database's
// bookkeeping row for the conversation names the journal, so that later
// database imports leave it alone.
func (p *cliParser) Claim(tx *store.Tx, _ importer.Plan, msgs []store.Message) error {
	key := export.Key(SourceName, p.sess.ID)
	owner := export.Elsewhere + p.file
	row, ok, err := tx.ImportFile(key)
	if err != nil {
		return err
	}
	if ok && row.State == owner {
		return nil
	}
	if ok && !strings.HasPrefix(row.State, export.Elsewhere) {
		if err := tx.ReplaceCopy(p.sess.ID, msgs); err != nil {
			return fmt.Errorf("replace the database's copy of %s: %w", p.sess.ID, err)
		}
	}
	return tx.SetImportFile(store.ImportFile{Path: key, Source: SourceName, State: owner, Sessions: p.sess.ID})
}

// blocksText joins a content list's text blocks; an image is "[image]", a
// JSON block its JSON text.
func blocksText(blocks []cliBlock) string {
	var out []string
	for _, b := range blocks {
		switch {
		case b.Kind == "text":
			out = append(out, blockString(b.Data))
		case strings.Contains(strings.ToLower(b.Kind), "image"):
			out = append(out, "[image]")
		case b.Kind == "json" || b.Kind == "Json":
			out = append(out, textutil.ArgsText(b.Data))
		}
	}
	return textutil.Join("\n", out...)
}

// blockString is a text block's data: a string, or {"text": ...}.
func blockString(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var o struct {
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &o) == nil {
		return o.Text
	}
	return ""
}

// unixTime reads a time kiro-cli writes as Unix seconds (or milliseconds),
// or as RFC 3339 text; the zero time when absent.
func unixTime(raw json.RawMessage) time.Time {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return textutil.ParseTime(s)
	}
	var f float64
	if json.Unmarshal(raw, &f) != nil || f <= 0 {
		return time.Time{}
	}
	if f > 1e12 {
		return time.UnixMilli(int64(f)).UTC()
	}
	return time.UnixMilli(int64(f * 1000)).UTC()
}
