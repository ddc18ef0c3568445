package goose

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer"
	"github.com/recall-dev/recall/store/importer/internal/textutil"
)

// legacy reads one session of older Goose versions: a .jsonl file whose
// first line is the session's metadata (working_dir, description, token
// counts) and every further line one Message {role, created, content}.
type legacy struct {
	id   string
	sess store.Session
	msgs []store.Message
	n    int
}

// Restore is never called: the file is always read whole (ImportWhole).
func (l *legacy) Restore(json.RawMessage) error { return nil }

// Line reads the metadata line or one message.
func (l *legacy) Line(text []byte, t *importer.Tally) error {
	l.n++
	if l.n == 1 {
		var md struct {
			WorkingDir  string `json:"working_dir"`
			Description string `json:"description"`
			Input       *int64 `json:"accumulated_input_tokens"`
			Output      *int64 `json:"accumulated_output_tokens"`
			InputNow    int64  `json:"input_tokens"`
			OutputNow   int64  `json:"output_tokens"`
		}
		if err := json.Unmarshal(text, &md); err != nil {
			t.Malformed("session metadata: %s", importer.DecodeProblem(err))
			return nil
		}
		l.sess = store.Session{ID: l.id, Source: SourceName, Title: textutil.Title(md.Description), Cwd: md.WorkingDir,
			InputTokens: md.InputNow, OutputTokens: md.OutputNow}
		if md.Input != nil {
			l.sess.InputTokens = *md.Input
		}
		if md.Output != nil {
			l.sess.OutputTokens = *md.Output
		}
		return nil
	}
	var m struct {
		Role     string          `json:"role"`
		Created  int64           `json:"created"`
		Content  json.RawMessage `json:"content"`
		Metadata json.RawMessage `json:"metadata"`
	}
	if err := json.Unmarshal(text, &m); err != nil {
		t.Malformed("message: %s", importer.DecodeProblem(err))
		return nil
	}
	if m.Role == "" {
		t.Malformed("%s", importer.MissingField("message", "role", text))
		return nil
	}
	if m.Content == nil {
		t.Malformed("%s", importer.MissingField("message", "content", text))
		return nil
	}
	ts := time.Unix(m.Created, 0).UTC()
	if l.sess.StartedAt.IsZero() || ts.Before(l.sess.StartedAt) {
		l.sess.StartedAt = ts
	}
	l.msgs = append(l.msgs, convert(l.id, fmt.Sprintf("line%d", t.Line), m.Role, m.Content, m.Metadata, ts, t)...)
	return nil
}

// Result is the session and its messages.
func (l *legacy) Result() importer.Result {
	if l.sess.ID == "" || len(l.msgs) == 0 {
		return importer.Result{}
	}
	nameTools(l.msgs)
	return importer.Result{Sessions: []store.Session{l.sess}, Overwrite: true, Messages: l.msgs}
}
