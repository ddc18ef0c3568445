// Package cursor imports the Cursor IDE's chat and agent (composer)
// conversations from its global state.vscdb (a SQLite key-value store:
// ~/.config/Cursor/User/globalStorage/state.vscdb on Linux, ~/Library/
// Application Support/Cursor/User/globalStorage/state.vscdb on macOS).
//
// Table cursorDiskKV holds composerData:<composerId> (the conversation:
// name, times, model, and fullConversationHeadersOnly, the bubble ids in
// order) and bubbleId:<composerId>:<bubbleId> (one message: type 1 user, 2
// assistant; text, thinking, toolFormerData, tokenCount). Older composers
// carry their bubbles inline in "conversation". The database is opened
// read-only while Cursor runs; a composer is read again only when it or
// its bubbles changed.
package cursor

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"time"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer"
	"github.com/recall-dev/recall/store/importer/internal/export"
	"github.com/recall-dev/recall/store/importer/internal/sqlitero"
	"github.com/recall-dev/recall/store/importer/internal/textutil"
)

// SourceName is the session source of imported Cursor IDE conversations.
const SourceName = "cursor"

func init() { importer.Register(&Source{}, "cursor-ide") }

// Source imports Cursor's state.vscdb.
type Source struct{}

// Name is "cursor".
func (*Source) Name() string { return SourceName }

// UserDir is Cursor's user data folder for this OS.
func UserDir() string {
	home, err := os.UserHomeDir()
	if err != nil {
		return ""
	}
	switch runtime.GOOS {
	case "darwin":
		return filepath.Join(home, "Library", "Application Support", "Cursor", "User")
	case "windows":
		if d := os.Getenv("APPDATA"); d != "" {
			return filepath.Join(d, "Cursor", "User")
		}
	}
	if d := os.Getenv("XDG_CONFIG_HOME"); d != "" {
		return filepath.Join(d, "Cursor", "User")
	}
	return filepath.Join(home, ".config", "Cursor", "User")
}

// DefaultPaths is the global state.vscdb.
func (*Source) DefaultPaths() []string {
	d := UserDir()
	if d == "" {
		return nil
	}
	// The workspaces' databases hold the older chat panel's tabs.
	ws, _ := filepath.Glob(filepath.Join(d, "workspaceStorage", "*", "state.vscdb"))
	sort.Strings(ws)
	return append([]string{filepath.Join(d, "globalStorage", "state.vscdb")}, ws...)
}

// Discover returns named files, and in a named folder (Cursor's User
// folder or its parent) the global state.vscdb and every workspace's.
func (*Source) Discover(paths []string) ([]string, error) {
	files, dirs, err := importer.SplitPaths(paths)
	if err != nil {
		return nil, err
	}
	for _, d := range dirs {
		for _, p := range []string{filepath.Join(d, "state.vscdb"), filepath.Join(d, "globalStorage", "state.vscdb"),
			filepath.Join(d, "User", "globalStorage", "state.vscdb")} {
			if importer.IsFile(p) {
				files = append(files, p)
				break
			}
		}
		for _, user := range []string{d, filepath.Join(d, "User")} {
			ws, _ := filepath.Glob(filepath.Join(user, "workspaceStorage", "*", "state.vscdb"))
			sort.Strings(ws)
			files = append(files, ws...)
		}
	}
	return files, nil
}

// Import brings the copy of one state.vscdb up to date.
func (*Source) Import(ctx context.Context, st *store.Store, file string) (importer.Report, error) {
	return export.ImportDB(ctx, st, SourceName, file, func(db *sqlitero.DB) (export.Reader, error) {
		cols, err := db.Columns("cursorDiskKV")
		if err != nil {
			return nil, err
		}
		tabs, tabHeads, err := readTabs(db)
		if err != nil {
			return nil, err
		}
		// A workspace's database without chats (most of them) has
		// nothing to import; it is no error.
		return &reader{db: db, kv: cols["key"] && cols["value"], tabs: tabs, tabHeads: tabHeads, cwd: workspaceFolder(file)}, nil
	})
}

type reader struct {
	db       *sqlitero.DB
	kv       bool               // the database has cursorDiskKV (composers)
	tabs     map[string]chatTab // the older chat panel's tabs (workspace databases)
	tabHeads []export.Head
	cwd      string // the workspace's folder, for a workspace database
}

// bubbleRange is the key range of a composer's bubbles (the key's unique
// index serves it).
func bubbleRange(id string) []any {
	return []any{"bubbleId:" + id + ":", "bubbleId:" + id + ";"}
}

// Heads lists composers with a fingerprint of their data and of their
// bubbles' count and total size.
func (r *reader) Heads() ([]export.Head, error) {
	if !r.kv {
		return r.tabHeads, nil
	}
	type row struct{ id, sum string }
	var rows []row
	err := r.db.Query(`SELECT substr(key, 14), value FROM cursorDiskKV WHERE key >= 'composerData:' AND key < 'composerData;' ORDER BY key`,
		nil, func(rw sqlitero.Row) error {
			s := sha256.Sum256([]byte(rw.Text(1)))
			rows = append(rows, row{rw.Text(0), hex.EncodeToString(s[:12])})
			return nil
		})
	if err != nil {
		return nil, err
	}
	out := make([]export.Head, 0, len(rows))
	for _, rw := range rows {
		var n, size int64
		err := r.db.Query(`SELECT COUNT(*), COALESCE(SUM(LENGTH(value)), 0) FROM cursorDiskKV WHERE key >= ? AND key < ?`,
			bubbleRange(rw.id), func(q sqlitero.Row) error {
				n, size = q.Int(0), q.Int(1)
				return nil
			})
		if err != nil {
			return nil, err
		}
		out = append(out, export.Head{ID: rw.id, Fingerprint: fmt.Sprintf("%s/%d/%d", rw.sum, n, size)})
	}
	return append(out, r.tabHeads...), nil
}

type composer struct {
	ComposerID    string   `json:"composerId"`
	Name          string   `json:"name"`
	CreatedAt     int64    `json:"createdAt"`
	LastUpdatedAt int64    `json:"lastUpdatedAt"`
	Headers       []header `json:"fullConversationHeadersOnly"`
	Conversation  []bubble `json:"conversation"`
	ModelConfig   struct {
		ModelName string `json:"modelName"`
	} `json:"modelConfig"`
	Archived bool `json:"isArchived"`
}

type header struct {
	BubbleID string `json:"bubbleId"`
	Type     int    `json:"type"`
}

type bubble struct {
	BubbleID string `json:"bubbleId"`
	Type     int    `json:"type"`
	Text     string `json:"text"`
	Thinking *struct {
		Text string `json:"text"`
	} `json:"thinking"`
	CreatedAt  string `json:"createdAt"`
	TokenCount struct {
		Input  int `json:"inputTokens"`
		Output int `json:"outputTokens"`
	} `json:"tokenCount"`
	ModelInfo *struct {
		ModelName string `json:"modelName"`
	} `json:"modelInfo"`
	Tool *struct {
		Name       string `json:"name"`
		RawArgs    string `json:"rawArgs"`
		Params     string `json:"params"`
		Result     string `json:"result"`
		Status     string `json:"status"`
		ToolCallID string `json:"toolCallId"`
	} `json:"toolFormerData"`
	WorkspaceURIs []string `json:"workspaceUris"`
}

func ms(v int64) time.Time {
	if v <= 0 {
		return time.Time{}
	}
	return time.UnixMilli(v).UTC()
}

// Load reads one composer and its bubbles, in header order.
func (r *reader) Load(h export.Head, t *importer.Tally) (export.Conversation, bool, error) {
	if tab, ok := r.tabs[h.ID]; ok {
		c, ok := loadTab(tab, r.cwd, t)
		return c, ok, nil
	}
	var raw string
	err := r.db.Query(`SELECT value FROM cursorDiskKV WHERE key = ?`, []any{"composerData:" + h.ID}, func(rw sqlitero.Row) error {
		raw = rw.Text(0)
		return nil
	})
	if err != nil || raw == "" {
		return export.Conversation{}, false, err
	}
	var c composer
	if err := json.Unmarshal([]byte(raw), &c); err != nil {
		t.Malformed("composerData:%s: %s", h.ID, importer.DecodeProblem(err))
		return export.Conversation{}, false, nil
	}
	bubbles := c.Conversation
	if len(c.Headers) > 0 {
		stored := map[string]bubble{}
		err := r.db.Query(`SELECT substr(key, ?), value FROM cursorDiskKV WHERE key >= ? AND key < ?`,
			append([]any{len("bubbleId:"+h.ID+":") + 1}, bubbleRange(h.ID)...), func(rw sqlitero.Row) error {
				var b bubble
				if err := json.Unmarshal([]byte(rw.Text(1)), &b); err != nil {
					t.Malformed("bubbleId:%s:%s: %s", h.ID, rw.Text(0), importer.DecodeProblem(err))
					return nil
				}
				stored[rw.Text(0)] = b
				return nil
			})
		if err != nil {
			return export.Conversation{}, false, err
		}
		bubbles = bubbles[:0:0]
		for _, hd := range c.Headers {
			b, ok := stored[hd.BubbleID]
			if !ok {
				t.Skip("bubbles Cursor has not written") // a header whose bubble Cursor has not written (or dropped)
				continue
			}
			if b.Type == 0 {
				b.Type = hd.Type
			}
			if b.BubbleID == "" {
				b.BubbleID = hd.BubbleID
			}
			bubbles = append(bubbles, b)
		}
	}
	sess := store.Session{ID: h.ID, Source: SourceName, Title: textutil.Title(c.Name), Model: c.ModelConfig.ModelName,
		StartedAt: ms(c.CreatedAt), EndedAt: ms(c.LastUpdatedAt), Archived: c.Archived}
	if sess.Cwd == "" {
		sess.Cwd = r.cwd
	}
	if sess.Model == "default" {
		sess.Model = "" // Cursor's "auto": the model is not recorded
	}
	var msgs []store.Message
	for _, b := range bubbles {
		ts := sess.StartedAt
		if p, err := time.Parse(time.RFC3339Nano, b.CreatedAt); err == nil {
			ts = p.UTC()
		}
		if sess.Cwd == "" {
			for _, u := range b.WorkspaceURIs {
				if p, err := url.Parse(u); err == nil && p.Scheme == "file" {
					sess.Cwd = p.Path
					break
				}
			}
		}
		switch b.Type {
		case 1:
			if strings.TrimSpace(b.Text) == "" {
				t.Skip("empty messages")
				continue
			}
			msgs = append(msgs, store.Message{SessionID: h.ID, Role: "user", Content: b.Text, Timestamp: ts, SourceKey: b.BubbleID})
		case 2:
			m := store.Message{SessionID: h.ID, Role: "assistant", Content: b.Text, Timestamp: ts, SourceKey: b.BubbleID,
				TokenCount: b.TokenCount.Output}
			if b.Thinking != nil {
				m.Reasoning = b.Thinking.Text
			}
			sess.InputTokens += int64(b.TokenCount.Input)
			sess.OutputTokens += int64(b.TokenCount.Output)
			if b.ModelInfo != nil && b.ModelInfo.ModelName != "" && b.ModelInfo.ModelName != "default" {
				sess.Model = b.ModelInfo.ModelName
			}
			var result *store.Message
			if tf := b.Tool; tf != nil && tf.Name != "" {
				id := tf.ToolCallID
				if id == "" {
					id = b.BubbleID
				}
				args := tf.RawArgs
				if args == "" {
					args = tf.Params
				}
				if !json.Valid([]byte(args)) {
					q, _ := json.Marshal(args)
					args = string(q)
				}
				m.ToolCalls = textutil.ToolCallsJSON([]textutil.ToolCall{textutil.NewToolCall(id, tf.Name, json.RawMessage(args))})
				if tf.Result != "" {
					result = &store.Message{SessionID: h.ID, Role: "tool", Content: textutil.ArgsText(json.RawMessage(quoteIfNeeded(tf.Result))),
						ToolCallID: id, ToolName: tf.Name, Timestamp: ts, SourceKey: b.BubbleID + "#result"}
				}
			}
			if m.Content == "" && m.Reasoning == "" && m.ToolCalls == "" {
				t.Skip("bubbles without text") // a bubble with only code-block or capability state
				continue
			}
			msgs = append(msgs, m)
			if result != nil {
				msgs = append(msgs, *result)
			}
		default:
			t.Malformed("bubbleId:%s:%s: unknown type %d", h.ID, b.BubbleID, b.Type)
		}
	}
	if len(msgs) == 0 {
		t.Skip("empty sessions") // a composer opened and closed without a message
		return export.Conversation{}, false, nil
	}
	return export.Conversation{Session: sess, Messages: msgs}, true, nil
}

// quoteIfNeeded makes text a JSON value: itself when it is JSON, else a
// JSON string.
func quoteIfNeeded(s string) string {
	if json.Valid([]byte(s)) {
		return s
	}
	q, _ := json.Marshal(s)
	return string(q)
}
