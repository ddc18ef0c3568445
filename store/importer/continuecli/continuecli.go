// Package continuecli imports the sessions of Continue's terminal agent,
// cn (@continuedev/cli): $CONTINUE_GLOBAL_DIR/sessions/<id>.json, else
// ~/.continue/sessions/<id>.json, one JSON document per session that cn
// rewrites whole after every turn, plus a sessions.json index that gives
// each session its creation time.
//
// A document is {sessionId, title, workspaceDirectory, history, usage}; a
// history item is {message: {role, content, toolCalls, usage},
// contextItems, toolCallStates: [{toolCallId, toolCall, status, output}]}.
// Messages carry no times: every message gets the session's creation time
// (from the index, else the file's). A fork (cn --fork) is a copy of its
// origin's history with nothing naming the origin, so it is imported as a
// session of its own. FORMATS.md, "Continue CLI", says what is kept.
package continuecli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer"
	"github.com/recall-dev/recall/store/importer/internal/textutil"
)

// SourceName is the session source of imported cn sessions.
const SourceName = "continue-cli"

func init() { importer.Register(&Source{}, "continue", "cn") }

// Source imports cn session files.
type Source struct {
	idx index
}

// Name is "continue-cli".
func (*Source) Name() string { return SourceName }

// DefaultPaths is the sessions folder.
func (*Source) DefaultPaths() []string {
	h := importer.HomeDir("CONTINUE_GLOBAL_DIR", ".continue")
	if h == "" {
		return nil
	}
	return []string{filepath.Join(h, "sessions")}
}

// Discover finds <id>.json session files (not the sessions.json index)
// under paths: a home folder, ~/.continue, its sessions folder, or files.
func (*Source) Discover(paths []string) ([]string, error) {
	roots := func(dir string) []string {
		for _, sub := range []string{filepath.Join(".continue", "sessions"), "sessions"} {
			if p := filepath.Join(dir, sub); importer.IsDir(p) {
				return []string{p}
			}
		}
		return []string{dir}
	}
	var walked []string
	out, err := importer.FindFiles(paths, roots, nil, func(path, n string) {
		if strings.HasSuffix(n, ".json") && n != "sessions.json" {
			walked = append(walked, path)
		}
	})
	if err != nil {
		return nil, err
	}
	sort.Strings(walked)
	return append(out, walked...), nil
}

type document struct {
	SessionID          string `json:"sessionId"`
	Title              string `json:"title"`
	WorkspaceDirectory string `json:"workspaceDirectory"`
	History            []item `json:"history"`
	Usage              *struct {
		TotalCost           float64 `json:"totalCost"`
		PromptTokens        int64   `json:"promptTokens"`
		CompletionTokens    int64   `json:"completionTokens"`
		PromptTokensDetails struct {
			CachedTokens     int64 `json:"cachedTokens"`
			CacheWriteTokens int64 `json:"cacheWriteTokens"`
		} `json:"promptTokensDetails"`
	} `json:"usage"`
}

type item struct {
	Message struct {
		Role       string          `json:"role"`
		Content    json.RawMessage `json:"content"`
		ToolCalls  []toolCall      `json:"toolCalls"`
		ToolCallID string          `json:"toolCallId"`
		Usage      *struct {
			CompletionTokens int64  `json:"completion_tokens"`
			Model            string `json:"model"`
		} `json:"usage"`
	} `json:"message"`
	ContextItems []struct {
		Name    string `json:"name"`
		Content string `json:"content"`
	} `json:"contextItems"`
	ToolCallStates []struct {
		ToolCallID string   `json:"toolCallId"`
		ToolCall   toolCall `json:"toolCall"`
		Status     string   `json:"status"`
		Output     []struct {
			Content string `json:"content"`
		} `json:"output"`
	} `json:"toolCallStates"`
}

type toolCall struct {
	ID       string `json:"id"`
	Function struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	} `json:"function"`
}

// indexEntry is one sessions.json record.
type indexEntry struct {
	SessionID   string `json:"sessionId"`
	DateCreated string `json:"dateCreated"`
}

// index caches one sessions.json (parsed once per change, not once per
// session file: a history of thousands of sessions has an index as long).
type index struct {
	mu      sync.Mutex
	path    string
	size    int64
	mtime   time.Time
	created map[string]time.Time
}

// createdAt reads the session's creation time from the sessions.json next to
// file; zero when it is not there.
func (x *index) createdAt(file, id string) time.Time {
	x.mu.Lock()
	defer x.mu.Unlock()
	path := filepath.Join(filepath.Dir(file), "sessions.json")
	fi, err := os.Stat(path)
	if err != nil {
		return time.Time{}
	}
	if path != x.path || fi.Size() != x.size || !fi.ModTime().Equal(x.mtime) {
		x.path, x.size, x.mtime, x.created = path, fi.Size(), fi.ModTime(), map[string]time.Time{}
		raw, err := os.ReadFile(path)
		var idx []indexEntry
		if err == nil && json.Unmarshal(raw, &idx) == nil {
			for _, e := range idx {
				if ms, err := strconv.ParseInt(e.DateCreated, 10, 64); err == nil && ms > 0 {
					x.created[e.SessionID] = time.UnixMilli(ms)
				}
			}
		}
	}
	return x.created[id]
}

// Import reads one session document again whenever it changed (cn
// rewrites it whole), replacing what it produced before.
func (s *Source) Import(ctx context.Context, st *store.Store, file string) (importer.Report, error) {
	var rep importer.Report
	t0 := time.Now()
	var plan importer.Plan
	err := st.Write(ctx, func(tx *store.Tx) error {
		var err error
		plan, err = importer.PlanFile(tx, SourceName, file, true)
		return err
	})
	if err != nil {
		return rep, err
	}
	if plan.Unchanged {
		rep.Unchanged = 1
		return rep, nil
	}
	raw, err := os.ReadFile(file)
	if err != nil {
		return rep, fmt.Errorf("read %s: %w", file, err)
	}
	var doc document
	if err := json.Unmarshal(raw, &doc); err != nil {
		return rep, fmt.Errorf("%s is not a cn session: %w", file, err)
	}
	if doc.SessionID == "" {
		doc.SessionID = strings.TrimSuffix(filepath.Base(file), ".json")
	}
	start := s.idx.createdAt(file, doc.SessionID)
	if start.IsZero() {
		start = plan.ModTime
	}
	sess, msgs := convert(doc, start, &rep)
	msgs = importer.DropTooLarge(msgs, file, &rep)
	rep.ParseTime = time.Since(t0)
	t1 := time.Now()
	n := 0
	err = st.Write(ctx, func(tx *store.Tx) error {
		var err error
		n, err = importer.Commit(tx, plan, importer.Batch{Sessions: []store.Session{sess}, Overwrite: true, Messages: msgs,
			Cursor: importer.Cursor{Offset: plan.Size}})
		return err
	})
	if err != nil {
		return rep, err
	}
	rep.WriteTime = time.Since(t1)
	rep.Files, rep.Sessions, rep.Messages = 1, 1, n
	return rep, nil
}

// convert maps a document to the session and its messages.
func convert(doc document, start time.Time, rep *importer.Report) (store.Session, []store.Message) {
	sess := store.Session{ID: doc.SessionID, Source: SourceName, Cwd: doc.WorkspaceDirectory, StartedAt: start}
	if t := doc.Title; t != "" && t != "Untitled Session" {
		sess.Title = textutil.Title(t)
	}
	if u := doc.Usage; u != nil {
		sess.InputTokens, sess.OutputTokens, sess.EstimatedCostUSD = u.PromptTokens, u.CompletionTokens, u.TotalCost
		sess.CacheReadTokens, sess.CacheWriteTokens = u.PromptTokensDetails.CachedTokens, u.PromptTokensDetails.CacheWriteTokens
	}
	var out []store.Message
	seenResult := map[string]bool{}
	key := func(i int, suffix string) string {
		return fmt.Sprintf("%s:%s:%d%s", SourceName, doc.SessionID, i, suffix)
	}
	for i, it := range doc.History {
		m := store.Message{SessionID: doc.SessionID, Timestamp: start, SourceKey: key(i, "")}
		text := textutil.FlattenParts(it.Message.Content)
		switch it.Message.Role {
		case "user":
			m.Role, m.Content = "user", text
			out = append(out, m)
			for j, c := range it.ContextItems {
				// Files and snippets cn attached to the turn: the person
				// chose them, cn wrote their text.
				if strings.TrimSpace(c.Content) == "" {
					continue
				}
				out = append(out, store.Message{SessionID: doc.SessionID, Role: "user", Timestamp: start,
					Content: textutil.Join("\n", c.Name, c.Content), DisplayKind: store.DisplayKindAgent,
					SourceKey: key(i, fmt.Sprintf(":ctx%d", j))})
			}
		case "assistant":
			m.Role, m.Content = "assistant", text
			var calls []textutil.ToolCall
			for _, c := range it.Message.ToolCalls {
				calls = append(calls, textutil.NewToolCall(c.ID, c.Function.Name, c.Function.Arguments))
			}
			m.ToolCalls = textutil.ToolCallsJSON(calls)
			if u := it.Message.Usage; u != nil {
				m.TokenCount = int(u.CompletionTokens)
				if u.Model != "" {
					sess.Model = u.Model
				}
			}
			if m.Content == "" && m.ToolCalls == "" {
				rep.Skip("empty messages")
				continue
			}
			out = append(out, m)
			for j, tc := range it.ToolCallStates {
				var texts []string
				for _, o := range tc.Output {
					texts = append(texts, o.Content)
				}
				r := store.Message{SessionID: doc.SessionID, Role: "tool", ToolCallID: tc.ToolCallID,
					ToolName: tc.ToolCall.Function.Name, Timestamp: start, Content: strings.Join(texts, "\n"),
					SourceKey: key(i, fmt.Sprintf(":tool%d", j))}
				switch tc.Status {
				case "done":
				case "errored":
					r.Content = "Error: " + r.Content
				default: // canceled, generating, calling: the call never finished
					r.Content = textutil.Join(" ", "["+tc.Status+"]", r.Content)
				}
				seenResult[tc.ToolCallID] = true
				out = append(out, r)
			}
		case "tool":
			if seenResult[it.Message.ToolCallID] {
				rep.Skip("tool results (kept with their calls)")
				continue
			}
			m.Role, m.Content, m.ToolCallID = "tool", text, it.Message.ToolCallID
			out = append(out, m)
		case "thinking":
			// A reasoning block cn keeps as an item of its own: kept as an
			// assistant message holding only the reasoning.
			m.Role, m.Reasoning = "assistant", text
			out = append(out, m)
		default: // system: the system prompt cn assembled
			rep.Skip("system prompts")
		}
	}
	return sess, out
}
