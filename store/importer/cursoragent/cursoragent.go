// Package cursoragent imports Cursor's terminal agent (cursor-agent, the
// Cursor CLI) chats: one SQLite database per chat,
// ~/.cursor/chats/<md5 of the workspace path>/<chatId>/store.db.
//
// Table meta holds, under key "0", hex-encoded JSON: agentId, name,
// createdAt (ms), lastUsedModel and latestRootBlobId. Table blobs is a
// content-addressed Merkle tree: a blob is either a message (JSON, the
// Vercel AI SDK's {role, content} with text, reasoning, tool-call and
// tool-result parts) or a node listing its children as protobuf field 1
// (0x0A 0x20 and a 32-byte SHA-256 id). The conversation is the messages
// met walking the tree from latestRootBlobId, depth first, in order.
//
// The same chats are also written as agent-transcripts under
// ~/.cursor/projects/<path>/agent-transcripts/: a second copy, not
// imported, so nothing is doubled.
package cursoragent

import (
	"context"
	"crypto/md5"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer"
	"github.com/recall-dev/recall/store/importer/internal/export"
	"github.com/recall-dev/recall/store/importer/internal/sqlitero"
	"github.com/recall-dev/recall/store/importer/internal/textutil"
)

// SourceName is the session source of imported cursor-agent chats.
const SourceName = "cursor-agent"

func init() { importer.Register(&Source{}, "cursor-cli") }

// Source imports cursor-agent store.db files.
type Source struct{}

// Name is "cursor-agent".
func (*Source) Name() string { return SourceName }

// DefaultPaths is ~/.cursor/chats.
func (*Source) DefaultPaths() []string {
	return importer.PathIf(importer.HomeDir("", filepath.Join(".cursor", "chats")))
}

// Discover finds every store.db under the named folders.
func (*Source) Discover(paths []string) ([]string, error) {
	return importer.FindMatching(paths, importer.Subfolder("chats"), nil, func(name string) bool {
		return name == "store.db"
	})
}

// Import brings the copy of one chat up to date.
func (*Source) Import(ctx context.Context, st *store.Store, file string) (importer.Report, error) {
	return export.ImportDB(ctx, st, SourceName, file, func(db *sqlitero.DB) (export.Reader, error) {
		r := &reader{db: db, file: file}
		if err := r.readMeta(); err != nil {
			return nil, err
		}
		return r, nil
	})
}

type meta struct {
	AgentID    string `json:"agentId"`
	Name       string `json:"name"`
	CreatedAt  int64  `json:"createdAt"`
	Model      string `json:"lastUsedModel"`
	RootBlobID string `json:"latestRootBlobId"`
}

type reader struct {
	db    *sqlitero.DB
	file  string
	meta  meta
	blobs int64
}

func (r *reader) readMeta() error {
	cols, err := r.db.Columns("meta")
	if err != nil {
		return err
	}
	if !cols["key"] || !cols["value"] {
		return fmt.Errorf("%s is not a cursor-agent store.db (no meta table)", r.file)
	}
	var raw string
	err = r.db.Query(`SELECT value FROM meta WHERE key = '0'`, nil, func(row sqlitero.Row) error {
		raw = row.Text(0)
		return nil
	})
	if err != nil {
		return err
	}
	b, err := hex.DecodeString(strings.TrimSpace(raw))
	if err != nil {
		b = []byte(raw) // plain JSON
	}
	if err := json.Unmarshal(b, &r.meta); err != nil {
		return fmt.Errorf("%s: meta: %s", r.file, importer.DecodeProblem(err))
	}
	if r.meta.AgentID == "" {
		r.meta.AgentID = filepath.Base(filepath.Dir(r.file))
	}
	return r.db.Query(`SELECT COUNT(*) FROM blobs`, nil, func(row sqlitero.Row) error {
		r.blobs = row.Int(0)
		return nil
	})
}

// Heads is the one chat of the database.
func (r *reader) Heads() ([]export.Head, error) {
	return []export.Head{{ID: r.meta.AgentID, Fingerprint: fmt.Sprintf("%s/%d/%s", r.meta.RootBlobID, r.blobs, r.meta.Name)}}, nil
}

type message struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
}

type part struct {
	Type       string          `json:"type"`
	Text       string          `json:"text"`
	ToolCallID string          `json:"toolCallId"`
	ToolName   string          `json:"toolName"`
	Args       json.RawMessage `json:"args"`
	Result     json.RawMessage `json:"result"`
	IsError    bool            `json:"isError"`
}

var (
	userQuery     = regexp.MustCompile(`(?s)<user_query>\s*(.*?)\s*</user_query>`)
	workspacePath = regexp.MustCompile(`Workspace Path: *(\S[^\n]*)`)
)

// Load walks the blob tree and converts its messages.
func (r *reader) Load(h export.Head, t *importer.Tally) (export.Conversation, bool, error) {
	blobs := map[string][]byte{}
	err := r.db.Query(`SELECT id, data FROM blobs`, nil, func(row sqlitero.Row) error {
		blobs[row.Text(0)] = []byte(row.Text(1))
		return nil
	})
	if err != nil {
		return export.Conversation{}, false, err
	}
	var raws []json.RawMessage
	var keys []string
	seen := map[string]bool{}
	var walk func(id string, depth int)
	walk = func(id string, depth int) {
		if seen[id] || depth > 10000 {
			return
		}
		seen[id] = true
		data, ok := blobs[id]
		if !ok {
			return
		}
		if len(data) > 0 && data[0] == '{' {
			raws, keys = append(raws, data), append(keys, id)
			return
		}
		children, inline := node(data)
		for _, c := range children {
			walk(c, depth+1)
		}
		for i, j := range inline {
			raws, keys = append(raws, j), append(keys, fmt.Sprintf("%s#%d", id, i))
		}
	}
	walk(r.meta.RootBlobID, 0)

	ts := time.UnixMilli(r.meta.CreatedAt).UTC()
	if r.meta.CreatedAt <= 0 {
		if fi, err := os.Stat(r.file); err == nil {
			ts = fi.ModTime().UTC()
		}
	}
	project := filepath.Base(filepath.Dir(filepath.Dir(r.file)))
	sess := store.Session{ID: h.ID, Source: SourceName, Title: textutil.Title(r.meta.Name), Model: r.meta.Model, StartedAt: ts}
	var msgs []store.Message
	for i, raw := range raws {
		var m message
		if err := json.Unmarshal(raw, &m); err != nil {
			t.Malformed("blob %s: %s", keys[i], importer.DecodeProblem(err))
			continue
		}
		var parts []part
		var text string
		if json.Unmarshal(m.Content, &text) != nil {
			if err := json.Unmarshal(m.Content, &parts); err != nil {
				t.Malformed("blob %s: content: %s", keys[i], importer.DecodeProblem(err))
				continue
			}
		} else {
			parts = []part{{Type: "text", Text: text}}
		}
		base := store.Message{SessionID: h.ID, Timestamp: ts, SourceKey: keys[i]}
		switch m.Role {
		case "system":
			t.Skip("system prompts")
		case "user":
			var texts []string
			for _, p := range parts {
				if p.Type == "text" {
					texts = append(texts, p.Text)
				}
			}
			body := strings.Join(texts, "\n\n")
			if sess.Cwd == "" {
				if mm := workspacePath.FindStringSubmatch(body); mm != nil {
					// The folder is named by the path's MD5: trust the path only when it matches.
					p := strings.TrimSpace(mm[1])
					if sum := md5.Sum([]byte(p)); hex.EncodeToString(sum[:]) == project {
						sess.Cwd = p
					}
				}
			}
			row := base
			row.Role = "user"
			if mm := userQuery.FindStringSubmatch(body); mm != nil {
				row.Content = mm[1]
			} else if strings.HasPrefix(strings.TrimSpace(body), "<") {
				// Only the context the agent attaches (<user_info>, rules): not typed.
				row.Content, row.DisplayKind = body, store.DisplayKindAgent
			} else {
				row.Content = body
			}
			if strings.TrimSpace(row.Content) == "" {
				t.Skip("empty messages")
				continue
			}
			msgs = append(msgs, row)
		case "assistant":
			row := base
			row.Role = "assistant"
			var texts, reasoning []string
			var calls []textutil.ToolCall
			for _, p := range parts {
				switch p.Type {
				case "text":
					texts = append(texts, p.Text)
				case "reasoning":
					reasoning = append(reasoning, p.Text)
				case "tool-call":
					calls = append(calls, textutil.NewToolCall(p.ToolCallID, p.ToolName, p.Args))
				}
			}
			row.Content, row.Reasoning, row.ToolCalls = strings.Join(texts, "\n\n"), strings.Join(reasoning, "\n\n"), textutil.ToolCallsJSON(calls)
			if row.Content == "" && row.Reasoning == "" && row.ToolCalls == "" {
				t.Skip("empty messages")
				continue
			}
			msgs = append(msgs, row)
		case "tool":
			for j, p := range parts {
				if p.Type != "tool-result" {
					continue
				}
				row := base
				row.Role, row.ToolCallID, row.ToolName = "tool", p.ToolCallID, p.ToolName
				row.Content = textutil.FlattenParts(p.Result)
				if p.IsError {
					row.Content = "error: " + row.Content
				}
				if j > 0 {
					row.SourceKey = fmt.Sprintf("%s#%d", keys[i], j)
				}
				msgs = append(msgs, row)
			}
		default:
			t.Malformed("blob %s: unknown role %q", keys[i], m.Role)
		}
	}
	if len(msgs) == 0 {
		t.Skip("empty sessions")
		return export.Conversation{}, false, nil
	}
	return export.Conversation{Session: sess, Messages: msgs}, true, nil
}

// node reads a tree node: protobuf fields, field 1 with 32 bytes being a
// child's id; a length-delimited field holding a JSON object is a message
// carried inline.
func node(b []byte) (children []string, inline []json.RawMessage) {
	for len(b) > 0 {
		tag, n := uvarint(b)
		if n <= 0 {
			return
		}
		b = b[n:]
		switch tag & 7 {
		case 0:
			_, n := uvarint(b)
			if n <= 0 {
				return
			}
			b = b[n:]
		case 1:
			if len(b) < 8 {
				return
			}
			b = b[8:]
		case 5:
			if len(b) < 4 {
				return
			}
			b = b[4:]
		case 2:
			l, n := uvarint(b)
			if n <= 0 || uint64(len(b)-n) < l {
				return
			}
			v := b[n : n+int(l)]
			b = b[n+int(l):]
			switch {
			case tag>>3 == 1 && l == 32:
				children = append(children, hex.EncodeToString(v))
			case len(v) > 0 && v[0] == '{' && json.Valid(v):
				inline = append(inline, v)
			}
		default:
			return
		}
	}
	return
}

func uvarint(b []byte) (uint64, int) {
	var x uint64
	for i := 0; i < len(b) && i < 10; i++ {
		x |= uint64(b[i]&0x7f) << (7 * i)
		if b[i] < 0x80 {
			return x, i + 1
		}
	}
	return 0, 0
}
