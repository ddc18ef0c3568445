// Package goose imports Goose (block/goose) sessions: the SQLite database
// ~/.local/share/goose/sessions/sessions.db (table sessions, and messages
// with each message's content as JSON in content_json), and the one
// *.jsonl file per session older versions wrote in the same folder.
//
// Goose copies those .jsonl files into sessions.db when it creates the
// database (SessionStorage::import_legacy), so a folder with a sessions.db
// is read from the database alone: the files would double it.
package goose

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer"
	"github.com/recall-dev/recall/store/importer/internal/export"
	"github.com/recall-dev/recall/store/importer/internal/sqlitero"
	"github.com/recall-dev/recall/store/importer/internal/textutil"
)

// SourceName is the session source of imported Goose sessions.
const SourceName = "goose"

func init() { importer.Register(&Source{}) }

// Source imports Goose's sessions.db and legacy .jsonl sessions.
type Source struct{}

// Name is "goose".
func (*Source) Name() string { return SourceName }

// SessionsDir is Goose's data dir's sessions folder:
// $XDG_DATA_HOME/goose/sessions, else ~/.local/share/goose/sessions
// (Paths::data_dir on Linux; macOS keeps it in the same place for the CLI).
func SessionsDir() string {
	return importer.DataHome("goose", "sessions")
}

// DefaultPaths is the sessions folder.
func (*Source) DefaultPaths() []string {
	return importer.PathIf(SessionsDir())
}

// Discover returns named files; in a named folder (or its sessions
// subfolder) sessions.db, or without one the legacy *.jsonl sessions.
func (*Source) Discover(paths []string) ([]string, error) {
	files, dirs, err := importer.SplitPaths(paths)
	if err != nil {
		return nil, err
	}
	for _, d := range dirs {
		if sub := filepath.Join(d, "sessions"); importer.IsDir(sub) {
			d = sub
		}
		if db := filepath.Join(d, "sessions.db"); importer.IsFile(db) {
			files = append(files, db)
			continue
		}
		legacy, _ := filepath.Glob(filepath.Join(d, "*.jsonl"))
		files = append(files, legacy...)
	}
	return files, nil
}

// Import brings the copy of one sessions.db, or one legacy session, up to date.
func (*Source) Import(ctx context.Context, st *store.Store, file string) (importer.Report, error) {
	if strings.HasSuffix(file, ".jsonl") {
		name := strings.TrimSuffix(filepath.Base(file), ".jsonl")
		return importer.ImportWhole(ctx, st, SourceName, file, func() (io.ReadCloser, error) { return os.Open(file) },
			func() importer.LineParser { return &legacy{id: name} })
	}
	return export.ImportDB(ctx, st, SourceName, file, func(db *sqlitero.DB) (export.Reader, error) {
		cols, err := db.Columns("messages")
		if err != nil {
			return nil, err
		}
		if !cols["content_json"] {
			return nil, fmt.Errorf("%s is not a Goose sessions.db (messages has no content_json)", file)
		}
		scols, err := db.Columns("sessions")
		if err != nil {
			return nil, err
		}
		return &reader{db: db, scols: scols}, nil
	})
}

type reader struct {
	db    *sqlitero.DB
	scols map[string]bool
}

func (r *reader) col(name string) string {
	if r.scols[name] {
		return name
	}
	return "NULL"
}

// Heads lists the sessions with a fingerprint of the row and of their
// messages' count and last id.
func (r *reader) Heads() ([]export.Head, error) {
	var out []export.Head
	err := r.db.Query(`SELECT s.*, (SELECT COUNT(*) || '/' || COALESCE(MAX(m.id), 0) FROM messages m WHERE m.session_id = s.id)
		FROM sessions s ORDER BY s.created_at, s.id`, nil, func(row sqlitero.Row) error {
		h := sha256.New()
		for i := 0; i < len(r.scols)+1; i++ {
			h.Write([]byte(row.Text(i)))
			h.Write([]byte{0})
		}
		out = append(out, export.Head{ID: row.Text(0), Fingerprint: hex.EncodeToString(h.Sum(nil)[:12])})
		return nil
	})
	return out, err
}

// parseTime reads SQLite's CURRENT_TIMESTAMP and the RFC 3339 text sqlx
// writes for a chrono DateTime.
func parseTime(s string) time.Time {
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02 15:04:05.999999999-07:00", "2006-01-02 15:04:05.999999999Z07:00", "2006-01-02 15:04:05"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC()
		}
	}
	return time.Time{}
}

// Load reads one session and its messages.
func (r *reader) Load(h export.Head, t *importer.Tally) (export.Conversation, bool, error) {
	var sess store.Session
	var kind string
	found := false
	err := r.db.Query(`SELECT id, COALESCE(`+r.col("name")+`, ''), COALESCE(description, ''), working_dir, created_at, updated_at,
			COALESCE(accumulated_input_tokens, input_tokens, 0), COALESCE(accumulated_output_tokens, output_tokens, 0),
			COALESCE(`+r.col("session_type")+`, 'user'), COALESCE(`+r.col("model_config_json")+`, '')
		FROM sessions WHERE id = ?`, []any{h.ID}, func(row sqlitero.Row) error {
		found = true
		title := row.Text(1)
		if title == "" {
			title = row.Text(2)
		}
		sess = store.Session{ID: row.Text(0), Source: SourceName, Title: textutil.Title(title), Cwd: row.Text(3),
			StartedAt: parseTime(row.Text(4)), EndedAt: parseTime(row.Text(5)), InputTokens: row.Int(6), OutputTokens: row.Int(7)}
		kind = row.Text(8)
		var mc struct {
			Model string `json:"model_name"`
		}
		if json.Unmarshal([]byte(row.Text(9)), &mc) == nil {
			sess.Model = mc.Model
		}
		return nil
	})
	if err != nil || !found {
		return export.Conversation{}, false, err
	}
	if kind == "hidden" {
		t.Skip("hidden sessions") // Goose's own internal sessions, never listed
		return export.Conversation{}, false, nil
	}
	if kind == "scheduled" || kind == "sub_agent" {
		sess.ModelConfig = fmt.Sprintf(`{"session_type":%q}`, kind)
	}
	var msgs []store.Message
	err = r.db.Query(`SELECT id, role, content_json, created_timestamp, COALESCE(metadata_json, '') FROM messages
		WHERE session_id = ? ORDER BY id`, []any{h.ID}, func(row sqlitero.Row) error {
		t.Line = int(row.Int(0))
		ts := time.Unix(row.Int(3), 0).UTC()
		msgs = append(msgs, convert(h.ID, row.Text(0), row.Text(1), []byte(row.Text(2)), []byte(row.Text(4)), ts, t)...)
		return nil
	})
	if err != nil {
		return export.Conversation{}, false, err
	}
	if len(msgs) == 0 {
		t.Skip("empty sessions") // an empty session
		return export.Conversation{}, false, nil
	}
	nameTools(msgs)
	return export.Conversation{Session: sess, Messages: msgs}, true, nil
}

type content struct {
	Type     string          `json:"type"`
	Text     string          `json:"text"`
	Thinking string          `json:"thinking"`
	ID       string          `json:"id"`
	ToolCall json.RawMessage `json:"toolCall"`
	Result   json.RawMessage `json:"toolResult"`
	MimeType string          `json:"mimeType"`
	Msg      string          `json:"msg"`
}

// toolResult is Goose's ToolResult serde: {"status": "success", "value": …}
// or {"status": "error", "error": "…"}.
type toolResult struct {
	Status string          `json:"status"`
	Value  json.RawMessage `json:"value"`
	Error  string          `json:"error"`
}

// convert turns one Goose message into rows: text, thinking and tool
// requests make one row of its role; each tool response a tool row.
func convert(sessID, key, role string, raw, meta []byte, ts time.Time, t *importer.Tally) []store.Message {
	var parts []content
	if err := json.Unmarshal(raw, &parts); err != nil {
		t.Malformed("message %s: content_json: %s", key, importer.DecodeProblem(err))
		return nil
	}
	var md struct {
		UserVisible *bool `json:"userVisible"`
	}
	_ = json.Unmarshal(meta, &md)
	var text, thinking []string
	var calls []textutil.ToolCall
	var out []store.Message
	n := 0
	next := func() string {
		n++
		if n == 1 {
			return key
		}
		return fmt.Sprintf("%s#%d", key, n)
	}
	for _, p := range parts {
		switch p.Type {
		case "text":
			if strings.TrimSpace(p.Text) != "" {
				text = append(text, p.Text)
			}
		case "image":
			text = append(text, "[image]")
		case "thinking":
			thinking = append(thinking, p.Thinking)
		case "toolRequest", "frontendToolRequest":
			var res toolResult
			_ = json.Unmarshal(p.ToolCall, &res)
			var call struct {
				Name      string          `json:"name"`
				Arguments json.RawMessage `json:"arguments"`
			}
			if json.Unmarshal(res.Value, &call) != nil || call.Name == "" {
				t.Malformed("message %s: a tool request that failed: %s", key, res.Error)
				continue
			}
			calls = append(calls, textutil.NewToolCall(p.ID, call.Name, call.Arguments))
		case "toolResponse":
			var res toolResult
			_ = json.Unmarshal(p.Result, &res)
			body := res.Error
			if res.Status != "error" {
				// A CallToolResult {content, isError}, or the content list itself (older Goose).
				var ctr struct {
					Content json.RawMessage `json:"content"`
					IsError bool            `json:"isError"`
				}
				v := res.Value
				if json.Unmarshal(res.Value, &ctr) == nil && ctr.Content != nil {
					v = ctr.Content
				}
				body = textutil.FlattenParts(v)
				if ctr.IsError {
					body = "error: " + body
				}
			} else {
				body = "error: " + body
			}
			out = append(out, store.Message{SessionID: sessID, Role: "tool", Content: body, ToolCallID: p.ID, Timestamp: ts, SourceKey: next()})
		case "systemNotification":
			t.Skip("system notifications")
		default:
			t.Skip(p.Type) // confirmations, redacted thinking, context markers
		}
	}
	if len(text) > 0 || len(thinking) > 0 || len(calls) > 0 {
		m := store.Message{SessionID: sessID, Role: role, Content: strings.Join(text, "\n\n"), Timestamp: ts, SourceKey: next()}
		if role == "assistant" {
			m.Reasoning, m.ToolCalls = strings.Join(thinking, "\n\n"), textutil.ToolCallsJSON(calls)
		}
		if role == "user" && md.UserVisible != nil && !*md.UserVisible {
			m.DisplayKind = store.DisplayKindAgent // sent to the model, never shown: Goose's own text
		}
		out = append([]store.Message{m}, out...)
	}
	return out
}

// nameTools names each tool row after the request it answers (a Goose
// tool response carries only the request's id).
func nameTools(msgs []store.Message) {
	names := map[string]string{}
	for i, m := range msgs {
		if m.ToolCalls != "" {
			var calls []textutil.ToolCall
			if json.Unmarshal([]byte(m.ToolCalls), &calls) == nil {
				for _, c := range calls {
					names[c.ID] = c.Function.Name
				}
			}
		}
		if m.Role == "tool" && m.ToolName == "" {
			msgs[i].ToolName = names[m.ToolCallID]
		}
	}
}
