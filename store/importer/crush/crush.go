// Package crush imports Crush (charmbracelet/crush) sessions: one SQLite
// database per project, <project>/.crush/crush.db (WAL), with the projects
// Crush has opened listed in its data dir's projects.json
// (${CRUSH_GLOBAL_DATA:-${XDG_DATA_HOME:-~/.local/share}/crush}).
//
// Each message row holds a JSON list of typed parts ({"type", "data"}):
// text, reasoning, tool_call, tool_result, finish, image_url, binary,
// shell_command. The database is opened read-only while Crush may be
// writing it (store/importer/internal/sqlitero); a session is read again
// only when its row or its messages changed.
package crush

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer"
	"github.com/recall-dev/recall/store/importer/internal/export"
	"github.com/recall-dev/recall/store/importer/internal/sqlitero"
	"github.com/recall-dev/recall/store/importer/internal/textutil"
)

// SourceName is the session source of imported Crush sessions.
const SourceName = "crush"

func init() { importer.Register(&Source{}) }

// Source imports Crush databases.
type Source struct{}

// Name is "crush".
func (*Source) Name() string { return SourceName }

// DataDir is where Crush keeps projects.json: $CRUSH_GLOBAL_DATA, else
// $XDG_DATA_HOME/crush, else ~/.local/share/crush (Crush's
// config.GlobalConfigData).
func DataDir() string {
	if d := os.Getenv("CRUSH_GLOBAL_DATA"); d != "" {
		return d
	}
	return importer.DataHome("crush")
}

// DefaultPaths is Crush's data dir.
func (*Source) DefaultPaths() []string {
	return importer.PathIf(DataDir())
}

// project is one entry of projects.json.
type project struct {
	Path    string `json:"path"`
	DataDir string `json:"data_dir"`
}

// projects reads dir/projects.json.
func projects(dir string) []project {
	raw, err := os.ReadFile(filepath.Join(dir, "projects.json"))
	if err != nil {
		return nil
	}
	var list struct {
		Projects []project `json:"projects"`
	}
	if json.Unmarshal(raw, &list) != nil {
		return nil
	}
	return list.Projects
}

// Discover finds crush.db files: named ones; in a named folder its own
// crush.db, its .crush/crush.db (a project), and every project its
// projects.json lists (Crush's data dir).
func (*Source) Discover(paths []string) ([]string, error) {
	files, dirs, err := importer.SplitPaths(paths)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	var out []string
	add := func(p string) {
		if importer.IsFile(p) && !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	for _, f := range files {
		add(f)
	}
	for _, d := range dirs {
		add(filepath.Join(d, "crush.db"))
		add(filepath.Join(d, ".crush", "crush.db"))
		ps := projects(d)
		sort.Slice(ps, func(i, j int) bool { return ps[i].Path < ps[j].Path })
		for _, p := range ps {
			dataDir := p.DataDir
			if dataDir == "" {
				dataDir = filepath.Join(p.Path, ".crush")
			} else if !filepath.IsAbs(dataDir) {
				dataDir = filepath.Join(p.Path, dataDir)
			}
			add(filepath.Join(dataDir, "crush.db"))
		}
	}
	return out, nil
}

// cwdOf is the project a crush.db belongs to: the path projects.json gives
// for its data dir, else the folder holding .crush.
func cwdOf(file string) string {
	dataDir := filepath.Dir(file)
	for _, p := range projects(DataDir()) {
		dd := p.DataDir
		if dd != "" && !filepath.IsAbs(dd) {
			dd = filepath.Join(p.Path, dd)
		}
		if dd != "" && filepath.Clean(dd) == filepath.Clean(dataDir) {
			return p.Path
		}
	}
	if filepath.Base(dataDir) == ".crush" {
		return filepath.Dir(dataDir)
	}
	return ""
}

// Import brings the copy of one crush.db up to date.
func (*Source) Import(ctx context.Context, st *store.Store, file string) (importer.Report, error) {
	cwd := cwdOf(file)
	return export.ImportDB(ctx, st, SourceName, file, func(db *sqlitero.DB) (export.Reader, error) {
		cols, err := db.Columns("messages")
		if err != nil {
			return nil, err
		}
		if !cols["parts"] || !cols["session_id"] {
			return nil, fmt.Errorf("%s is not a Crush database (no messages.parts)", file)
		}
		return &reader{db: db, cwd: cwd, summary: cols["is_summary_message"]}, nil
	})
}

type reader struct {
	db      *sqlitero.DB
	cwd     string
	summary bool // messages.is_summary_message exists
}

// Heads lists sessions, parents first, with a fingerprint of the row and
// of its messages' count and last update.
func (r *reader) Heads() ([]export.Head, error) {
	var out []export.Head
	err := r.db.Query(`SELECT s.id, s.parent_session_id, s.title, s.prompt_tokens, s.completion_tokens, s.cost, s.updated_at,
			(SELECT COUNT(*) || '/' || COALESCE(MAX(m.updated_at), 0) || '/' || COALESCE(MAX(m.created_at), 0) FROM messages m WHERE m.session_id = s.id)
		FROM sessions s ORDER BY s.parent_session_id IS NOT NULL, s.created_at, s.id`, nil, func(row sqlitero.Row) error {
		h := sha256.New()
		for i := 0; i < 8; i++ {
			h.Write([]byte(row.Text(i)))
			h.Write([]byte{0})
		}
		out = append(out, export.Head{ID: row.Text(0), Fingerprint: hex.EncodeToString(h.Sum(nil)[:12])})
		return nil
	})
	return out, err
}

// at reads Crush's timestamps: Unix seconds (its SQL writes
// strftime('%s')), or milliseconds where a column's comment says so.
func at(v int64) time.Time {
	switch {
	case v <= 0:
		return time.Time{}
	case v > 1e12:
		return time.UnixMilli(v).UTC()
	}
	return time.Unix(v, 0).UTC()
}

type part struct {
	Type string          `json:"type"`
	Data json.RawMessage `json:"data"`
}

type partData struct {
	Text       string `json:"text"`
	Thinking   string `json:"thinking"`
	ID         string `json:"id"`
	Name       string `json:"name"`
	Input      string `json:"input"`
	ToolCallID string `json:"tool_call_id"`
	Content    string `json:"content"`
	IsError    bool   `json:"is_error"`
	Reason     string `json:"reason"`
	Command    string `json:"command"`
	Output     string `json:"output"`
	ExitCode   int    `json:"exit_code"`
}

// Load reads one session and its messages.
func (r *reader) Load(h export.Head, t *importer.Tally) (export.Conversation, bool, error) {
	var sess store.Session
	found := false
	err := r.db.Query(`SELECT id, COALESCE(parent_session_id, ''), title, prompt_tokens, completion_tokens, cost, created_at
		FROM sessions WHERE id = ?`, []any{h.ID}, func(row sqlitero.Row) error {
		found = true
		sess = store.Session{ID: row.Text(0), Source: SourceName, ParentID: row.Text(1), Title: textutil.Title(row.Text(2)),
			InputTokens: row.Int(3), OutputTokens: row.Int(4), EstimatedCostUSD: row.Float(5), StartedAt: at(row.Int(6)), Cwd: r.cwd}
		return nil
	})
	if err != nil || !found {
		return export.Conversation{}, false, err
	}
	summary := "0"
	if r.summary {
		summary = "is_summary_message"
	}
	var msgs []store.Message
	err = r.db.Query(`SELECT id, role, parts, COALESCE(model, ''), created_at, `+summary+`
		FROM messages WHERE session_id = ? ORDER BY created_at, rowid`, []any{h.ID}, func(row sqlitero.Row) error {
		t.Line++
		id, role, model, ts := row.Text(0), row.Text(1), row.Text(3), at(row.Int(4))
		var parts []part
		if err := json.Unmarshal([]byte(row.Text(2)), &parts); err != nil {
			t.Malformed("message %s: parts: %s", id, importer.DecodeProblem(err))
			return nil
		}
		rows := convert(sess.ID, id, role, parts, ts, t)
		for i := range rows {
			if rows[i].Role == "assistant" && model != "" {
				sess.Model = model
			}
		}
		if row.Int(5) != 0 {
			// The summary Crush wrote when it compacted the session.
			for i := range rows {
				if rows[i].Role == "user" {
					rows[i].DisplayKind = store.DisplayKindCompaction
				}
			}
		}
		msgs = append(msgs, rows...)
		return nil
	})
	if err != nil {
		return export.Conversation{}, false, err
	}
	if len(msgs) == 0 {
		t.Skip("empty sessions") // a session opened and left empty
		return export.Conversation{}, false, nil
	}
	return export.Conversation{Session: sess, Messages: msgs}, true, nil
}

// convert turns one Crush message into rows: a user row, an assistant row
// (text, reasoning, tool calls, finish), or one tool row per result.
func convert(sessID, id, role string, parts []part, ts time.Time, t *importer.Tally) []store.Message {
	var text, reasoning []string
	var calls []textutil.ToolCall
	var out []store.Message
	finish := ""
	n := 0
	key := func() string {
		n++
		if n == 1 {
			return id
		}
		return fmt.Sprintf("%s#%d", id, n)
	}
	for _, p := range parts {
		var d partData
		if len(p.Data) > 0 && json.Unmarshal(p.Data, &d) != nil {
			t.Malformed("message %s: %s part: not an object", id, p.Type)
			continue
		}
		switch p.Type {
		case "text":
			if strings.TrimSpace(d.Text) != "" {
				text = append(text, d.Text)
			}
		case "reasoning":
			if strings.TrimSpace(d.Thinking) != "" {
				reasoning = append(reasoning, d.Thinking)
			}
		case "image_url", "binary":
			text = append(text, "[image]")
		case "tool_call":
			calls = append(calls, textutil.NewToolCall(d.ID, d.Name, json.RawMessage(quoteArgs(d.Input))))
		case "tool_result":
			content := d.Content
			if d.IsError {
				content = textutil.Join(" ", "error:", content)
			}
			out = append(out, store.Message{SessionID: sessID, Role: "tool", Content: content, ToolCallID: d.ToolCallID,
				ToolName: d.Name, Timestamp: ts, SourceKey: key()})
		case "finish":
			finish = d.Reason
		case "shell_command":
			// A `!` command the person ran in Crush's input, and its output.
			out = append(out, store.Message{SessionID: sessID, Role: "user", Content: "! " + d.Command,
				DisplayKind: store.DisplayKindCommand, Timestamp: ts, SourceKey: key()})
			if strings.TrimSpace(d.Output) != "" {
				out = append(out, store.Message{SessionID: sessID, Role: "user", Content: d.Output,
					DisplayKind: store.DisplayKindAgent, Timestamp: ts, SourceKey: key()})
			}
		default:
			t.Skip(p.Type)
		}
	}
	switch role {
	case "user", "assistant":
		if len(text) > 0 || len(reasoning) > 0 || len(calls) > 0 {
			m := store.Message{SessionID: sessID, Role: role, Content: strings.Join(text, "\n\n"), Timestamp: ts, SourceKey: key()}
			if role == "assistant" {
				m.Reasoning, m.ToolCalls, m.FinishReason = strings.Join(reasoning, "\n\n"), textutil.ToolCallsJSON(calls), finish
			}
			out = append([]store.Message{m}, out...)
		}
	case "tool":
	case "system":
		t.Skip("system prompts")
		return nil
	default:
		t.Malformed("message %s: unknown role %q", id, role)
		return nil
	}
	if len(out) == 0 {
		t.Skip("empty messages") // a message with no content (cancelled before any output)
	}
	return out
}

// quoteArgs makes Crush's input (JSON text as written by the model, or
// half of it when the call was cut off) a JSON value NewToolCall keeps.
func quoteArgs(input string) string {
	if json.Valid([]byte(input)) {
		return input
	}
	b, _ := json.Marshal(input)
	return string(b)
}
