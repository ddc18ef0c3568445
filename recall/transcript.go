package recall

import (
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/recall-dev/recall/store"
)

// Tool outputs longer than toolClipAt characters keep their first and last
// toolClipKeep characters (Hermes's _format_conversation: 500, 250 + 250).
const (
	toolClipAt   = 500
	toolClipKeep = 250
	toolClipMark = "\n...[truncated]...\n"
)

// transcript is a session formatted for a model, with where each message
// starts (rune offset) so a window of it can be mapped back to messages.
type transcript struct {
	text  string
	msgs  []store.Message
	spans []int // spans[i] is the rune offset where msgs[i]'s first part starts
}

// formatTranscript renders messages as Hermes's _format_conversation does,
// each part prefixed with its message id so a model can cite it:
//
//	#12 [USER]: how do I ...
//	#13 [ASSISTANT]: [Called: terminal, read_file]
//	#13 [ASSISTANT]: Let me check.
//	#14 [TOOL:terminal]: <output, clipped to 250 + ... + 250 when over 500 characters>
//
// Parts are joined by a blank line.
func formatTranscript(msgs []store.Message) transcript {
	t := transcript{msgs: msgs, spans: make([]int, len(msgs))}
	var b strings.Builder
	runes := 0
	write := func(id int64, label, content string) {
		if b.Len() > 0 {
			b.WriteString("\n\n")
			runes += 2
		}
		start := b.Len()
		b.WriteByte('#')
		b.WriteString(strconv.FormatInt(id, 10))
		b.WriteString(" [")
		b.WriteString(label)
		b.WriteString("]: ")
		b.WriteString(content)
		runes += utf8.RuneCountInString(b.String()[start:])
	}
	for i, m := range msgs {
		t.spans[i] = runes
		if runes > 0 {
			t.spans[i] += 2 // the separator belongs to the gap, not the message
		}
		switch {
		case m.Role == "tool":
			name := m.ToolName
			if name == "" {
				name = "unknown"
			}
			write(m.ID, "TOOL:"+name, clipMiddle(m.Content, toolClipAt, toolClipKeep))
		case m.Role == "assistant" && m.ToolCalls != "":
			if names := toolCallNames(m.ToolCalls); len(names) > 0 {
				write(m.ID, "ASSISTANT", "[Called: "+strings.Join(names, ", ")+"]")
			}
			if m.Content != "" {
				write(m.ID, "ASSISTANT", m.Content)
			}
		default:
			write(m.ID, speakerLabel(m), m.Content)
		}
	}
	t.text = b.String()
	return t
}

// messagesIn returns the messages whose text overlaps runes [start, end) of
// the transcript, in order.
func (t transcript) messagesIn(start, end int) []store.Message {
	var out []store.Message
	for i, m := range t.msgs {
		next := end
		if i+1 < len(t.spans) {
			next = t.spans[i+1]
		}
		if t.spans[i] < end && next > start {
			out = append(out, m)
		}
	}
	return out
}

// clipMiddle keeps the first and last keep characters of a text longer than
// at characters, with a marker between.
func clipMiddle(s string, at, keep int) string {
	if len(s) <= at || utf8.RuneCountInString(s) <= at {
		return s
	}
	head, tail := 0, len(s)
	for n := 0; n < keep; n++ {
		_, size := utf8.DecodeRuneInString(s[head:])
		head += size
	}
	for n := 0; n < keep; n++ {
		_, size := utf8.DecodeLastRuneInString(s[:tail])
		tail -= size
	}
	return s[:head] + toolClipMark + s[tail:]
}

// toolCallNames returns the function names of an assistant message's
// tool_calls JSON (OpenAI's {"function":{"name":...}} or a flat {"name":...}).
func toolCallNames(raw string) []string {
	var calls []struct {
		Name     string `json:"name"`
		Function struct {
			Name string `json:"name"`
		} `json:"function"`
	}
	if json.Unmarshal([]byte(raw), &calls) != nil {
		return nil
	}
	names := make([]string, 0, len(calls))
	for _, c := range calls {
		switch {
		case c.Name != "":
			names = append(names, c.Name)
		case c.Function.Name != "":
			names = append(names, c.Function.Name)
		default:
			names = append(names, "unknown")
		}
	}
	return names
}
