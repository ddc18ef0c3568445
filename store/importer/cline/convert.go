package cline

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// meta is the first line convert writes: what the file and the files
// beside it say about the session.
type meta struct {
	// Source is the session source (SourceName when empty): the task
	// format is shared by the extensions of the Cline family.
	Source  string `json:"source,omitempty"`
	ID      string `json:"id"`
	Parent  string `json:"parent,omitempty"`
	Agent   bool   `json:"agent,omitempty"` // a sub-agent's run: its prompts are the parent's
	Task    bool   `json:"task,omitempty"`  // the task format (XML tool calls in text)
	Title   string `json:"title,omitempty"`
	Cwd     string `json:"cwd,omitempty"`
	Model   string `json:"model,omitempty"`
	Started string `json:"started,omitempty"`
	Ended   string `json:"ended,omitempty"`
	// Totals the task's history keeps beside the messages (Roo Code's
	// history_item.json), used when the messages carry no metrics.
	In, Out, CacheRead, CacheWrite int64   `json:",omitempty"`
	Cost                           float64 `json:",omitempty"`
}

// convert reads a conversation file and returns it as lines: {"meta": …}
// then {"m": message} per message.
func convert(file string) ([]byte, error) {
	raw, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", file, err)
	}
	if kind(file) == kindTask || bytes.HasPrefix(bytes.TrimSpace(raw), []byte("[")) {
		return convertTask(file, raw, taskMeta(file))
	}
	var doc struct {
		SessionID string            `json:"sessionId"`
		UpdatedAt string            `json:"updated_at"`
		Messages  []json.RawMessage `json:"messages"`
		Origin    struct {
			ParentThreadID string `json:"parentThreadId"`
			Subagent       string `json:"subagent"`
		} `json:"origin"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		return nil, fmt.Errorf("not a Cline session (a JSON object with messages): %s", jsonProblem(err))
	}
	if doc.Messages == nil && doc.SessionID == "" {
		return nil, errors.New("not a Cline session: no sessionId and no messages")
	}
	m := sessionMeta(file, doc.SessionID, doc.Origin.ParentThreadID, doc.Origin.Subagent != "")
	if m.Ended == "" {
		m.Ended = doc.UpdatedAt
	}
	return lines(m, doc.Messages)
}

// convertTask turns a task-format history (raw, a JSON list of messages)
// into lines, with m what is known about the task outside it.
func convertTask(file string, raw []byte, m meta) ([]byte, error) {
	var msgs []json.RawMessage
	if err := json.Unmarshal(raw, &msgs); err != nil {
		return nil, fmt.Errorf("not a Cline task history (a JSON list of messages): %s", jsonProblem(err))
	}
	m.Task = true
	msgs = append(msgs, lastReply(filepath.Join(filepath.Dir(file), "ui_messages.json"), msgs)...)
	return lines(m, msgs)
}

// lines writes {"meta": m} then {"m": message} per message.
func lines(m meta, msgs []json.RawMessage) ([]byte, error) {
	var buf bytes.Buffer
	head, _ := json.Marshal(map[string]meta{"meta": m})
	buf.Write(head)
	buf.WriteByte('\n')
	for _, msg := range msgs {
		buf.WriteString(`{"m":`)
		if err := json.Compact(&buf, msg); err != nil {
			return nil, err
		}
		buf.WriteString("}\n")
	}
	return buf.Bytes(), nil
}

func jsonProblem(err error) string {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Sprintf("invalid JSON at byte %d (the file may be being rewritten)", se.Offset)
	}
	return err.Error()
}

// sessionMeta reads the Cline 3 manifest <dir>/<dir>.json of the file's
// folder (the lead session's, whose cwd its sub-agents share).
func sessionMeta(file, id, parent string, agent bool) meta {
	dir := filepath.Dir(file)
	if id == "" {
		id = strings.TrimSuffix(filepath.Base(file), ".messages.json")
	}
	m := meta{ID: id, Parent: parent, Agent: agent || kind(file) == kindAgent}
	if m.Agent && m.Parent == "" {
		m.Parent = filepath.Base(dir)
	}
	var man struct {
		StartedAt string `json:"started_at"`
		EndedAt   string `json:"ended_at"`
		Model     string `json:"model"`
		Cwd       string `json:"cwd"`
		Prompt    string `json:"prompt"`
		Metadata  struct {
			Title string `json:"title"`
		} `json:"metadata"`
	}
	if raw, err := os.ReadFile(filepath.Join(dir, filepath.Base(dir)+".json")); err == nil && json.Unmarshal(raw, &man) == nil {
		m.Cwd, m.Model = man.Cwd, man.Model
		if !m.Agent {
			m.Title, m.Started, m.Ended = man.Metadata.Title, man.StartedAt, man.EndedAt
		}
	}
	return m
}

// taskMeta reads what Cline keeps about a task outside its history: the
// CLI's state/taskHistory.json (title, cwd, model) and task_metadata.json
// (the model used last).
func taskMeta(file string) meta {
	dir := filepath.Dir(file)
	m := meta{ID: filepath.Base(dir), Task: true}
	var md struct {
		ModelUsage []struct {
			ModelID string `json:"model_id"`
		} `json:"model_usage"`
	}
	if raw, err := os.ReadFile(filepath.Join(dir, "task_metadata.json")); err == nil && json.Unmarshal(raw, &md) == nil && len(md.ModelUsage) > 0 {
		m.Model = md.ModelUsage[len(md.ModelUsage)-1].ModelID
	}
	var hist []struct {
		ID      string `json:"id"`
		Task    string `json:"task"`
		Cwd     string `json:"cwdOnTaskInitialization"`
		ModelID string `json:"modelId"`
	}
	data := filepath.Dir(filepath.Dir(dir))
	if raw, err := os.ReadFile(filepath.Join(data, "state", "taskHistory.json")); err == nil && json.Unmarshal(raw, &hist) == nil {
		for _, h := range hist {
			if h.ID == m.ID {
				m.Title, m.Cwd = h.Task, h.Cwd
				if m.Model == "" {
					m.Model = h.ModelID
				}
			}
		}
	}
	return m
}

// lastReply is the task's final reply when the history lacks it: Cline
// writes a reply to api_conversation_history.json only when the next turn
// starts, so a task that ended with attempt_completion has its last answer
// only in ui_messages.json (the "reasoning", "text" and "completion_result"
// it said after the last history message), returned as one assistant
// message.
func lastReply(uiPath string, msgs []json.RawMessage) []json.RawMessage {
	raw, err := os.ReadFile(uiPath)
	if err != nil {
		return nil
	}
	var ui []struct {
		TS   int64  `json:"ts"`
		Type string `json:"type"`
		Say  string `json:"say"`
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &ui) != nil {
		return nil
	}
	var last int64
	for _, m := range msgs {
		var h struct {
			TS int64 `json:"ts"`
		}
		if json.Unmarshal(m, &h) == nil && h.TS > last {
			last = h.TS
		}
	}
	var blocks []map[string]string
	var ts int64
	for _, u := range ui {
		if u.TS <= last || u.Type != "say" || strings.TrimSpace(u.Text) == "" || inHistory(u.Text, msgs) {
			continue
		}
		switch u.Say {
		case "reasoning":
			blocks = append(blocks, map[string]string{"type": "thinking", "thinking": u.Text})
		case "text", "completion_result":
			blocks = append(blocks, map[string]string{"type": "text", "text": u.Text})
		default:
			continue
		}
		ts = u.TS
	}
	if len(blocks) == 0 {
		return nil
	}
	out, err := json.Marshal(map[string]any{"role": "assistant", "content": blocks, "ts": ts})
	if err != nil {
		return nil
	}
	return []json.RawMessage{out}
}

// inHistory reports whether text is already in one of the history's
// messages (Roo Code writes a reply, its native attempt_completion
// included, to the history before it shows it; Cline only at the next
// turn).
func inHistory(text string, msgs []json.RawMessage) bool {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // as Node's JSON.stringify writes it
	if enc.Encode(text) != nil {
		return false
	}
	inner := bytes.TrimSuffix(bytes.TrimSpace(buf.Bytes()), []byte(`"`))[1:]
	for _, m := range msgs {
		if bytes.Contains(m, inner) {
			return true
		}
	}
	return false
}
