package auggie

import (
	"cmp"
	"encoding/json"
	"strconv"
	"strings"
	"time"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer"
	"github.com/recall-dev/recall/store/importer/internal/textutil"
)

// header is the session's own fields (the first line sessionLines makes).
type header struct {
	SessionID  string `json:"sessionId"`
	Created    string `json:"created"`
	Modified   string `json:"modified"`
	AgentState struct {
		ModelID string `json:"modelId"`
	} `json:"agentState"`
}

// item is one chatHistory entry.
type item struct {
	Exchange *struct {
		RequestMessage string `json:"request_message"`
		ResponseText   string `json:"response_text"`
		RequestID      string `json:"request_id"`
		RequestNodes   []node `json:"request_nodes"`
		ResponseNodes  []node `json:"response_nodes"`
	} `json:"exchange"`
	SequenceID       int    `json:"sequenceId"`
	FinishedAt       string `json:"finishedAt"`
	IsHistorySummary bool   `json:"isHistorySummary"`
}

// Node types (Auggie's ChatRequestNodeType and ChatResultNodeType).
const (
	nodeText      = 0
	nodeResult    = 1 // request: a tool's result
	nodeIDEState  = 4
	nodeToolUse   = 5
	nodeThinking  = 8
	nodeTokenUsed = 10
)

// node is the union of the request and response nodes recall reads.
type node struct {
	Type        int    `json:"type"`
	Content     string `json:"content"`
	TimestampMS int64  `json:"timestamp_ms"`
	TextNode    *struct {
		Content string `json:"content"`
	} `json:"text_node"`
	ToolResult *struct {
		ToolUseID string `json:"tool_use_id"`
		Content   string `json:"content"`
		IsError   bool   `json:"is_error"`
		StartMS   int64  `json:"start_time_ms"`
	} `json:"tool_result_node"`
	IDEState *struct {
		WorkspaceFolders []struct {
			FolderRoot string `json:"folder_root"`
		} `json:"workspace_folders"`
		CurrentTerminal *struct {
			Cwd string `json:"current_working_directory"`
		} `json:"current_terminal"`
	} `json:"ide_state_node"`
	ToolUse *struct {
		ID        string          `json:"tool_use_id"`
		Name      string          `json:"tool_name"`
		InputJSON json.RawMessage `json:"input_json"`
	} `json:"tool_use"`
	Thinking *struct {
		Summary string `json:"summary"`
		Content string `json:"content"`
	} `json:"thinking"`
	TokenUsage *struct {
		Input      int64 `json:"input_tokens"`
		Output     int64 `json:"output_tokens"`
		CacheRead  int64 `json:"cache_read_input_tokens"`
		CacheWrite int64 `json:"cache_creation_input_tokens"`
	} `json:"token_usage"`
}

// parser reads one session, always whole (ImportWhole).
type parser struct {
	file  string
	sess  store.Session
	msgs  []store.Message
	tools map[string]string // tool_use_id -> tool name, for the results
}

func newParser(file string) *parser {
	return &parser{file: file, tools: map[string]string{},
		sess: store.Session{ID: textutil.IDFromName(file), Source: SourceName}}
}

// Restore is never called: a session is always read whole.
func (p *parser) Restore(json.RawMessage) error { return nil }

// Line reads the header or one exchange.
func (p *parser) Line(text []byte, t *importer.Tally) error {
	if t.Line == 1 {
		var h header
		if err := json.Unmarshal(text, &h); err != nil {
			t.Malformed("%s", importer.DecodeProblem(err))
			return nil
		}
		if h.SessionID != "" {
			p.sess.ID = h.SessionID
		}
		p.sess.StartedAt = textutil.ParseTime(h.Created)
		p.sess.EndedAt = textutil.ParseTime(h.Modified)
		p.sess.Model = h.AgentState.ModelID
		return nil
	}
	var it item
	if err := json.Unmarshal(text, &it); err != nil {
		t.Malformed("%s", importer.DecodeProblem(err))
		return nil
	}
	if it.Exchange == nil {
		t.Malformed("%s", importer.MissingField("chatHistory item", "exchange", text))
		return nil
	}
	p.exchange(it, t)
	return nil
}

// exchange adds one exchange's rows: the tool results its request carries
// (answers to the previous exchange's calls), what the person typed, and
// the model's answer.
func (p *parser) exchange(it item, t *importer.Tally) {
	ex := it.Exchange
	key := SourceName + ":" + p.sess.ID + ":" + ex.RequestID
	if ex.RequestID == "" {
		key = SourceName + ":" + p.sess.ID + ":" + strconv.Itoa(it.SequenceID)
	}
	finished := textutil.ParseTime(it.FinishedAt)
	when := finished
	for _, n := range ex.ResponseNodes {
		if n.TimestampMS > 0 {
			when = time.UnixMilli(n.TimestampMS).UTC()
			break
		}
	}
	var typed []string
	for _, n := range ex.RequestNodes {
		switch {
		case n.Type == nodeText && n.TextNode != nil:
			if strings.TrimSpace(n.TextNode.Content) != "" {
				typed = append(typed, n.TextNode.Content)
			}
		case n.Type == nodeResult && n.ToolResult != nil:
			r := n.ToolResult
			ts := when
			if r.StartMS > 0 {
				ts = time.UnixMilli(r.StartMS).UTC()
			}
			m := store.Message{SessionID: p.sess.ID, Role: "tool", Content: r.Content, ToolCallID: r.ToolUseID,
				ToolName: p.tools[r.ToolUseID], Timestamp: ts, SourceKey: key + ":tool:" + r.ToolUseID}
			if r.IsError {
				m.FinishReason = "error"
			}
			p.msgs = append(p.msgs, m)
		case n.Type == nodeIDEState && n.IDEState != nil && p.sess.Cwd == "":
			if c := n.IDEState.CurrentTerminal; c != nil && c.Cwd != "" {
				p.sess.Cwd = c.Cwd
			} else if f := n.IDEState.WorkspaceFolders; len(f) > 0 {
				p.sess.Cwd = f[0].FolderRoot
			}
		}
	}
	prompt := strings.Join(typed, "\n\n")
	if prompt == "" {
		prompt = ex.RequestMessage
	}
	if strings.TrimSpace(prompt) != "" {
		m := store.Message{SessionID: p.sess.ID, Role: "user", Content: prompt, Timestamp: when, SourceKey: key + ":u"}
		if it.IsHistorySummary {
			m.DisplayKind = store.DisplayKindCompaction // the summary Auggie sends in place of a long history
		}
		p.msgs = append(p.msgs, m)
	}
	a := store.Message{SessionID: p.sess.ID, Role: "assistant", Timestamp: when, SourceKey: key + ":a"}
	var texts, thoughts []string
	var calls []textutil.ToolCall
	for _, n := range ex.ResponseNodes {
		switch {
		case n.Type == nodeText:
			if strings.TrimSpace(n.Content) != "" {
				texts = append(texts, n.Content)
			}
		case n.Type == nodeToolUse && n.ToolUse != nil:
			calls = append(calls, textutil.NewToolCall(n.ToolUse.ID, n.ToolUse.Name, n.ToolUse.InputJSON))
			p.tools[n.ToolUse.ID] = n.ToolUse.Name
		case n.Type == nodeThinking && n.Thinking != nil:
			if s := cmp.Or(n.Thinking.Summary, n.Thinking.Content); strings.TrimSpace(s) != "" {
				thoughts = append(thoughts, s)
			}
		case n.Type == nodeTokenUsed && n.TokenUsage != nil:
			u := n.TokenUsage
			p.sess.InputTokens += u.Input
			p.sess.OutputTokens += u.Output
			p.sess.CacheReadTokens += u.CacheRead
			p.sess.CacheWriteTokens += u.CacheWrite
			a.TokenCount += int(u.Output)
		}
	}
	a.Content = strings.Join(texts, "\n\n")
	if a.Content == "" && len(ex.ResponseNodes) == 0 {
		a.Content = ex.ResponseText // an exchange written before its nodes
	}
	a.Reasoning = strings.Join(thoughts, "\n\n")
	a.ToolCalls = textutil.ToolCallsJSON(calls)
	if strings.TrimSpace(a.Content) == "" && a.ToolCalls == "" && a.Reasoning == "" {
		if prompt == "" && len(ex.RequestNodes) == 0 {
			t.Skip()
		}
		return
	}
	p.msgs = append(p.msgs, a)
}

// Result is the session with its full metadata and every message.
func (p *parser) Result() importer.Result {
	if p.sess.StartedAt.IsZero() && len(p.msgs) > 0 {
		p.sess.StartedAt = p.msgs[0].Timestamp
	}
	return importer.Result{Sessions: []store.Session{p.sess}, Overwrite: true, Messages: p.msgs}
}
