package junie

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer"
	"github.com/recall-dev/recall/store/importer/internal/textutil"
)

// line is one events.jsonl record.
type line struct {
	Kind   string `json:"kind"`
	Prompt string `json:"prompt"`
	Event  *struct {
		State      string     `json:"state"`
		AgentEvent agentEvent `json:"agentEvent"`
	} `json:"event"`
}

// agentEvent is the union of the agent events recall reads.
type agentEvent struct {
	Kind              string `json:"kind"`
	StepID            string `json:"stepId"`
	Status            string `json:"status"`
	Text              string `json:"text"`
	Details           string `json:"details"`
	Command           string `json:"command"`
	Output            string `json:"output"`
	PresentableOutput string `json:"presentableOutput"`
	Files             []struct {
		RelativePath string `json:"relativePath"`
	} `json:"files"`
	Changes []struct {
		Before string `json:"beforeRelativePath"`
		After  string `json:"afterRelativePath"`
	} `json:"changes"`
	Cancelled  bool            `json:"cancelled"`
	Result     json.RawMessage `json:"result"`
	ErrorCode  json.RawMessage `json:"errorCode"`
	Message    string          `json:"message"`
	ModelUsage []struct {
		Model       string  `json:"model"`
		Cost        float64 `json:"cost"`
		Input       int64   `json:"inputTokens"`
		CacheInput  int64   `json:"cacheInputTokens"`
		CacheCreate int64   `json:"cacheCreateTokens"`
		Output      int64   `json:"outputTokens"`
	} `json:"modelUsage"`
}

// item is a prompt, or the latest version of a step.
type item struct {
	prompt string
	ev     agentEvent
	key    string
}

// saved is what an import keeps for the next one.
type saved struct {
	Written map[string]bool `json:"w,omitempty"` // steps stored already
	Models  map[string]int  `json:"m,omitempty"` // answers per model
	In      int64           `json:"i,omitempty"`
	Out     int64           `json:"o,omitempty"`
	CR      int64           `json:"cr,omitempty"`
	CW      int64           `json:"cw,omitempty"`
	Cost    float64         `json:"c,omitempty"`
	First   string          `json:"f,omitempty"` // the first prompt
}

type parser struct {
	sess  store.Session
	items []*item
	steps map[string]*item
	st    saved
}

func newParser(s store.Session) *parser {
	return &parser{sess: s, steps: map[string]*item{}, st: saved{Written: map[string]bool{}, Models: map[string]int{}}}
}

// Restore loads the saved state.
func (p *parser) Restore(raw json.RawMessage) error {
	if err := json.Unmarshal(raw, &p.st); err != nil {
		return err
	}
	if p.st.Written == nil {
		p.st.Written = map[string]bool{}
	}
	if p.st.Models == nil {
		p.st.Models = map[string]int{}
	}
	return nil
}

// blocks are the step kinds that become messages.
var blocks = map[string]bool{"ToolBlockUpdatedEvent": true, "TerminalBlockUpdatedEvent": true, "ViewFilesBlockUpdatedEvent": true,
	"FileChangesBlockUpdatedEvent": true, "ResultBlockUpdatedEvent": true}

// Line reads one record.
func (p *parser) Line(text []byte, t *importer.Tally) error {
	var l line
	if err := json.Unmarshal(text, &l); err != nil {
		t.Malformed("%s", importer.DecodeProblem(err))
		return nil
	}
	key := "L" + strconv.Itoa(t.Line)
	switch l.Kind {
	case "UserPromptEvent":
		if strings.TrimSpace(l.Prompt) == "" {
			t.Skip()
			return nil
		}
		p.items = append(p.items, &item{prompt: l.Prompt, key: key})
		if p.st.First == "" {
			p.st.First = l.Prompt
		}
		return nil
	case "SessionA2uxEvent":
	default:
		t.Skip() // TaskState, SendToAgentEvent, ...
		return nil
	}
	if l.Event == nil {
		t.Malformed("%s", importer.MissingField("SessionA2uxEvent", "event", text))
		return nil
	}
	ev := l.Event.AgentEvent
	switch {
	case ev.Kind == "LlmResponseMetadataEvent":
		for _, u := range ev.ModelUsage {
			p.st.In += u.Input
			p.st.Out += u.Output
			p.st.CR += u.CacheInput
			p.st.CW += u.CacheCreate
			p.st.Cost += u.Cost
			if u.Model != "" {
				p.st.Models[u.Model]++
			}
		}
		t.Skip()
	case ev.Kind == "AgentFailureEvent" && ev.Message != "":
		p.items = append(p.items, &item{ev: ev, key: key})
	case blocks[ev.Kind] && ev.StepID != "":
		if p.st.Written[ev.StepID] {
			// A step stored by an earlier import was written again (it
			// completed): read the file again, so its row is replaced.
			return importer.ErrRestart
		}
		if it, ok := p.steps[ev.StepID]; ok {
			it.ev = ev // the COMPLETED version replaces the IN_PROGRESS one
			t.Skip()
			return nil
		}
		it := &item{ev: ev, key: ev.StepID}
		p.steps[ev.StepID] = it
		p.items = append(p.items, it)
	default:
		t.Skip() // status lines, agent state blobs, patches
	}
	return nil
}

// rows turns one item into messages.
func (p *parser) rows(it *item) []store.Message {
	base := store.Message{SessionID: p.sess.ID, Timestamp: p.sess.StartedAt, SourceKey: it.key}
	if it.prompt != "" {
		base.Role, base.Content = "user", it.prompt
		return []store.Message{base}
	}
	ev := it.ev
	call := func(name string, args map[string]any, result string, failed bool) []store.Message {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false) // "a -> b" stays readable
		_ = enc.Encode(args)
		raw := bytes.TrimSpace(buf.Bytes())
		a := base
		a.Role, a.ToolCalls = "assistant", textutil.ToolCallsJSON([]textutil.ToolCall{textutil.NewToolCall(it.key, name, raw)})
		r := base
		r.Role, r.Content, r.ToolCallID, r.ToolName, r.SourceKey = "tool", result, it.key, name, it.key+"#result"
		if failed {
			r.FinishReason = "error"
		}
		return []store.Message{a, r}
	}
	failed := strings.EqualFold(ev.Status, "FAILED") || strings.EqualFold(ev.Status, "ERROR")
	switch ev.Kind {
	case "TerminalBlockUpdatedEvent":
		out := ev.Output
		if out == "" {
			out = ev.PresentableOutput
		}
		return call("terminal", map[string]any{"command": ev.Command}, out, failed)
	case "ToolBlockUpdatedEvent":
		return call("tool", map[string]any{"action": ev.Text}, ev.Details, failed)
	case "ViewFilesBlockUpdatedEvent":
		var files []string
		for _, f := range ev.Files {
			files = append(files, f.RelativePath)
		}
		return call("view_files", map[string]any{"files": files}, strings.Join(files, "\n"), failed)
	case "FileChangesBlockUpdatedEvent":
		var files []string
		for _, c := range ev.Changes {
			switch {
			case c.Before == "" || c.Before == c.After:
				files = append(files, c.After)
			case c.After == "":
				files = append(files, c.Before+" (deleted)")
			default:
				files = append(files, c.Before+" -> "+c.After)
			}
		}
		return call("file_changes", map[string]any{"files": files}, strings.Join(files, "\n"), failed)
	case "ResultBlockUpdatedEvent":
		text := textutil.FlattenParts(ev.Result)
		if ev.Cancelled || strings.TrimSpace(text) == "" || text == "Empty" {
			return nil
		}
		base.Role, base.Content = "assistant", text
		return []store.Message{base}
	case "AgentFailureEvent":
		base.Role, base.Content, base.FinishReason = "assistant", "error: "+ev.Message, "error"
		return []store.Message{base}
	}
	return nil
}

// Result is the session (title from the index, else the first prompt;
// model the one most answers came from) and the new messages.
func (p *parser) Result() importer.Result {
	var msgs []store.Message
	for _, it := range p.items {
		msgs = append(msgs, p.rows(it)...)
		if it.prompt == "" && it.ev.StepID != "" {
			p.st.Written[it.ev.StepID] = true
		}
	}
	s := p.sess
	if s.Title == "" {
		s.Title = textutil.Title(p.st.First)
	}
	best := 0
	for m, n := range p.st.Models {
		if n > best || (n == best && m < s.Model) {
			s.Model, best = m, n
		}
	}
	s.InputTokens, s.OutputTokens, s.CacheReadTokens, s.CacheWriteTokens, s.EstimatedCostUSD = p.st.In, p.st.Out, p.st.CR, p.st.CW, p.st.Cost
	if len(msgs) == 0 && p.st.First == "" {
		return importer.Result{State: &p.st}
	}
	return importer.Result{Sessions: []store.Session{s}, Overwrite: true, Messages: msgs, State: &p.st}
}
