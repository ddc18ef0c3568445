package cursor

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer"
	"github.com/recall-dev/recall/store/importer/internal/export"
	"github.com/recall-dev/recall/store/importer/internal/sqlitero"
	"github.com/recall-dev/recall/store/importer/internal/textutil"
)

// chatDataKey is the ItemTable key of the chat panel Cursor had before
// composers (each workspace's workspaceStorage/<id>/state.vscdb): one JSON
// value {tabs: [{tabId, chatTitle, lastSendTime, bubbles: [{type: "user" |
// "ai", text}]}]}.
const chatDataKey = "workbench.panel.aichat.view.aichat.chatdata"

type chatTab struct {
	TabID    string       `json:"tabId"`
	Title    string       `json:"chatTitle"`
	LastSend int64        `json:"lastSendTime"`
	Bubbles  []chatBubble `json:"bubbles"`
}

type chatBubble struct {
	ID        string `json:"id"`
	Type      string `json:"type"`
	Text      string `json:"text"`
	RawText   string `json:"rawText"`
	ModelType string `json:"modelType"`
}

// readTabs reads the chat panel's tabs, with a fingerprint each; none when
// the database has no ItemTable or no such key.
func readTabs(db *sqlitero.DB) (map[string]chatTab, []export.Head, error) {
	cols, err := db.Columns("ItemTable")
	if err != nil || !cols["key"] {
		return nil, nil, err
	}
	var raw string
	err = db.Query(`SELECT value FROM ItemTable WHERE key = ?`, []any{chatDataKey}, func(r sqlitero.Row) error {
		raw = r.Text(0)
		return nil
	})
	if err != nil || raw == "" {
		return nil, nil, err
	}
	var data struct {
		Tabs []json.RawMessage `json:"tabs"`
	}
	if json.Unmarshal([]byte(raw), &data) != nil {
		return nil, nil, nil // not the shape recall knows: left alone
	}
	tabs := map[string]chatTab{}
	var heads []export.Head
	for _, rt := range data.Tabs {
		var tab chatTab
		if json.Unmarshal(rt, &tab) != nil || tab.TabID == "" {
			continue
		}
		sum := sha256.Sum256(rt)
		tabs[tab.TabID] = tab
		heads = append(heads, export.Head{ID: tab.TabID, Fingerprint: hex.EncodeToString(sum[:12])})
	}
	return tabs, heads, nil
}

// workspaceFolder is the folder a workspaceStorage/<id>/state.vscdb belongs
// to: workspace.json's "folder" beside it.
func workspaceFolder(file string) string {
	raw, err := os.ReadFile(filepath.Join(filepath.Dir(file), "workspace.json"))
	if err != nil {
		return ""
	}
	var ws struct {
		Folder string `json:"folder"`
	}
	if json.Unmarshal(raw, &ws) != nil {
		return ""
	}
	if u, err := url.Parse(ws.Folder); err == nil && u.Scheme == "file" {
		return u.Path
	}
	return ""
}

// loadTab converts one chat panel tab.
func loadTab(tab chatTab, cwd string, t *importer.Tally) (export.Conversation, bool) {
	ts := time.Time{}
	if tab.LastSend > 0 {
		ts = time.UnixMilli(tab.LastSend).UTC()
	}
	sess := store.Session{ID: tab.TabID, Source: SourceName, Title: textutil.Title(tab.Title), StartedAt: ts, Cwd: cwd}
	var msgs []store.Message
	for i, b := range tab.Bubbles {
		text := b.Text
		if strings.TrimSpace(text) == "" {
			text = b.RawText
		}
		if strings.TrimSpace(text) == "" {
			t.Skip("empty messages")
			continue
		}
		key := b.ID
		if key == "" {
			key = "bubble" + strconv.Itoa(i)
		}
		m := store.Message{SessionID: tab.TabID, Content: text, Timestamp: ts, SourceKey: key}
		switch b.Type {
		case "user":
			m.Role = "user"
		case "ai":
			m.Role = "assistant"
			if b.ModelType != "" {
				sess.Model = b.ModelType
			}
		default:
			t.Malformed("%s tab %s: unknown bubble type %q", chatDataKey, tab.TabID, b.Type)
			continue
		}
		msgs = append(msgs, m)
	}
	if len(msgs) == 0 {
		t.Skip("empty sessions")
		return export.Conversation{}, false
	}
	return export.Conversation{Session: sess, Messages: msgs}, true
}
