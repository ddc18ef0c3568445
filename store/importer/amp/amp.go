// Package amp imports Amp (Sourcegraph's coding agent) threads:
// ${XDG_DATA_HOME:-~/.local/share}/amp/threads/T-<uuid>.json, one JSON
// document per thread, rewritten whole as the thread grows (the server
// holds the master copy; this is the local one).
//
// A thread is {id, title, created (ms), env.initial {cwd, trees[{uri}]},
// messages[{role, messageId, content[], state, usage, meta{sentAt}}]} with
// Anthropic-shaped content blocks; tool results are {type: tool_result,
// toolUseID, run: {status, result | progress}}.
package amp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer"
	"github.com/recall-dev/recall/store/importer/internal/textutil"
)

// SourceName is the session source of imported Amp threads.
const SourceName = "amp"

func init() { importer.Register(&Source{}) }

// Source imports Amp thread files.
type Source struct{}

// Name is "amp".
func (*Source) Name() string { return SourceName }

// ThreadsDir is where Amp keeps its threads.
func ThreadsDir() string {
	return importer.DataHome("amp", "threads")
}

// DefaultPaths is the threads folder.
func (*Source) DefaultPaths() []string {
	return importer.PathIf(ThreadsDir())
}

// Discover finds T-*.json threads under the named folders.
func (*Source) Discover(paths []string) ([]string, error) {
	return importer.FindMatching(paths, importer.Subfolder("threads"), nil, func(name string) bool {
		return strings.HasPrefix(name, "T-") && strings.HasSuffix(name, ".json")
	})
}

// Import reads one thread whole whenever it changed.
func (*Source) Import(ctx context.Context, st *store.Store, file string) (importer.Report, error) {
	raw, err := os.ReadFile(file)
	if err != nil {
		return importer.Report{}, fmt.Errorf("read %s: %w", file, err)
	}
	lines, err := threadLines(raw)
	if err != nil {
		// Cut short while Amp rewrote it, or not a thread: retried next time.
		var rep importer.Report
		rep.Failed = 1
		rep.Problemf(file, 0, "%s", err.Error())
		return rep, nil
	}
	id := strings.TrimSuffix(filepath.Base(file), ".json")
	return importer.ImportWhole(ctx, st, SourceName, file, func() (io.ReadCloser, error) {
		return io.NopCloser(bytes.NewReader(lines)), nil
	}, func() importer.LineParser {
		return &parser{sess: store.Session{ID: id, Source: SourceName}, tools: map[string]string{}}
	})
}

// threadLines turns the thread into lines: its metadata (without the
// messages) first, then one line per message.
func threadLines(raw []byte) ([]byte, error) {
	return importer.DocumentLines(raw, "messages", "an Amp thread")
}

type parser struct {
	sess  store.Session
	msgs  []store.Message
	tools map[string]string
	n     int
}

// Restore is never called: a thread is always read whole.
func (p *parser) Restore(json.RawMessage) error { return nil }

type thread struct {
	ID      string `json:"id"`
	Title   string `json:"title"`
	Created int64  `json:"created"`
	Env     struct {
		Initial struct {
			Cwd   string `json:"cwd"`
			Trees []struct {
				URI json.RawMessage `json:"uri"`
			} `json:"trees"`
		} `json:"initial"`
	} `json:"env"`
}

type message struct {
	Role      string          `json:"role"`
	MessageID json.RawMessage `json:"messageId"`
	Content   json.RawMessage `json:"content"`
	State     struct {
		Type       string `json:"type"`
		StopReason string `json:"stopReason"`
	} `json:"state"`
	Usage *struct {
		Model       string `json:"model"`
		Input       int64  `json:"inputTokens"`
		Output      int64  `json:"outputTokens"`
		CacheCreate int64  `json:"cacheCreationInputTokens"`
		CacheRead   int64  `json:"cacheReadInputTokens"`
	} `json:"usage"`
	Meta struct {
		SentAt int64 `json:"sentAt"`
	} `json:"meta"`
}

type block struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	Thinking  string          `json:"thinking"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"toolUseID"`
	Run       struct {
		Status   string          `json:"status"`
		Result   json.RawMessage `json:"result"`
		Progress json.RawMessage `json:"progress"`
	} `json:"run"`
	Summary struct {
		Type    string `json:"type"`
		Summary string `json:"summary"`
	} `json:"summary"`
}

// Line reads the thread's metadata or one message.
func (p *parser) Line(text []byte, t *importer.Tally) error {
	p.n++
	if p.n == 1 {
		var th thread
		if err := json.Unmarshal(text, &th); err != nil {
			t.Malformed("thread: %s", importer.DecodeProblem(err))
			return nil
		}
		if th.ID != "" {
			p.sess.ID = th.ID
		}
		p.sess.Title = textutil.Title(th.Title)
		if th.Created > 0 {
			p.sess.StartedAt = time.UnixMilli(th.Created).UTC()
		}
		p.sess.Cwd = th.Env.Initial.Cwd
		for _, tr := range th.Env.Initial.Trees {
			if p.sess.Cwd != "" {
				break
			}
			var s string
			var o struct {
				FsPath string `json:"fsPath"`
				Path   string `json:"path"`
			}
			switch {
			case json.Unmarshal(tr.URI, &s) == nil:
				if u, err := url.Parse(s); err == nil && u.Scheme == "file" {
					p.sess.Cwd = u.Path
				}
			case json.Unmarshal(tr.URI, &o) == nil:
				p.sess.Cwd = textutil.Join("", o.FsPath, map[bool]string{true: o.Path}[o.FsPath == ""])
			}
		}
		return nil
	}
	var m message
	if err := json.Unmarshal(text, &m); err != nil {
		t.Malformed("message: %s", importer.DecodeProblem(err))
		return nil
	}
	var blocks []block
	var s string
	if json.Unmarshal(m.Content, &s) == nil {
		blocks = []block{{Type: "text", Text: s}}
	} else if err := json.Unmarshal(m.Content, &blocks); err != nil {
		t.Malformed("message %s: content: %s", m.MessageID, importer.DecodeProblem(err))
		return nil
	}
	ts := p.sess.StartedAt
	if m.Meta.SentAt > 0 {
		ts = time.UnixMilli(m.Meta.SentAt).UTC()
	}
	key := fmt.Sprintf("%d", p.n-1)
	if len(m.MessageID) > 0 {
		key = strings.Trim(string(m.MessageID), `"`)
	}
	var texts, thinking []string
	var calls []textutil.ToolCall
	for i, b := range blocks {
		switch b.Type {
		case "text":
			if strings.TrimSpace(b.Text) != "" {
				texts = append(texts, b.Text)
			}
		case "image":
			texts = append(texts, "[image]")
		case "thinking":
			thinking = append(thinking, b.Thinking)
		case "tool_use":
			calls = append(calls, textutil.NewToolCall(b.ID, b.Name, b.Input))
			p.tools[b.ID] = b.Name
		case "tool_result":
			body := ""
			if len(b.Run.Result) > 0 && string(b.Run.Result) != "null" {
				body = flatten(b.Run.Result)
			} else if len(b.Run.Progress) > 0 {
				body = flatten(b.Run.Progress)
			}
			switch b.Run.Status {
			case "error", "cancelled", "rejected-by-user":
				body = textutil.Join(": ", "error", textutil.Join(" ", b.Run.Status, body))
			}
			p.msgs = append(p.msgs, store.Message{SessionID: p.sess.ID, Role: "tool", Content: body, ToolCallID: b.ToolUseID,
				ToolName: p.tools[b.ToolUseID], Timestamp: ts, SourceKey: fmt.Sprintf("%s#%d", key, i)})
		case "summary":
			if m.Role == "info" && b.Summary.Summary != "" {
				p.msgs = append(p.msgs, store.Message{SessionID: p.sess.ID, Role: "user", Content: b.Summary.Summary,
					DisplayKind: store.DisplayKindCompaction, Timestamp: ts, SourceKey: fmt.Sprintf("%s#%d", key, i)})
			}
		default:
			t.Skip(b.Type)
		}
	}
	if m.Usage != nil {
		if m.Usage.Model != "" {
			p.sess.Model = m.Usage.Model
		}
		p.sess.InputTokens += m.Usage.Input
		p.sess.OutputTokens += m.Usage.Output
		p.sess.CacheWriteTokens += m.Usage.CacheCreate
		p.sess.CacheReadTokens += m.Usage.CacheRead
	}
	if len(texts) == 0 && len(thinking) == 0 && len(calls) == 0 {
		return nil
	}
	row := store.Message{SessionID: p.sess.ID, Role: m.Role, Content: strings.Join(texts, "\n\n"), Timestamp: ts, SourceKey: key}
	switch m.Role {
	case "assistant":
		row.Reasoning, row.ToolCalls, row.FinishReason = strings.Join(thinking, "\n\n"), textutil.ToolCallsJSON(calls), m.State.StopReason
		if m.Usage != nil {
			row.TokenCount = int(m.Usage.Output)
		}
	case "user":
	default:
		row.Role, row.DisplayKind = "user", store.DisplayKindAgent
	}
	p.msgs = append(p.msgs, row)
	return nil
}

// flatten is a tool result as text: a string, a list of lines, content parts, or a JSON
// object ({output, exitCode} of a shell run) as compact JSON.
func flatten(raw json.RawMessage) string {
	var lines []string
	if json.Unmarshal(raw, &lines) == nil {
		return strings.Join(lines, "\n") // a search's matches, one per line
	}
	if s := textutil.FlattenParts(raw); s != "" {
		return s
	}
	return textutil.ArgsText(raw)
}

// Result is the thread and its messages.
func (p *parser) Result() importer.Result {
	if len(p.msgs) == 0 {
		return importer.Result{}
	}
	if p.sess.StartedAt.IsZero() {
		p.sess.StartedAt = p.msgs[0].Timestamp
	}
	return importer.Result{Sessions: []store.Session{p.sess}, Overwrite: true, Messages: p.msgs}
}
