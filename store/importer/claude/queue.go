package claude

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strings"
	"time"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer"
	"github.com/recall-dev/recall/store/importer/internal/textutil"
)

// queue handles a queue-operation record. Text typed while the agent works
// is written first as {"operation":"enqueue","content":...}; what happens
// to it next decides whether a user record repeats it:
//   - "remove" (with the same content): delivered to the agent mid-turn as
//     steering (an attachment, no user record): the enqueue is the only
//     place the words are. Claude Code 2.1.207 writes such steering as a
//     remove with no enqueue before it: then the remove is imported.
//   - "dequeue": sent as the next prompt, which Claude Code writes as an
//     ordinary user record.
//   - "popAll": pulled back into the input box to be edited; what the
//     person then sends is an ordinary user record.
//
// So the text is imported as a user message at its enqueue record (its
// place in time), and retracted when an ordinary user record with the same
// text follows, or on popAll: the words are imported once.
func (p *parser) queue(r *record, t *importer.Tally) error {
	text := queueText(r.Content)
	switch r.Operation {
	case "enqueue":
		k, ok := p.queued(r, text, t)
		if !ok {
			return nil
		}
		p.st.Queue = append(p.st.Queue, queued{Key: k, Text: collapse(text)})
		if len(p.st.Queue) > maxQueued {
			p.st.Queue = p.st.Queue[len(p.st.Queue)-maxQueued:]
		}
	case "remove":
		// Delivered mid-turn: no user record will repeat it.
		want := collapse(text)
		for i, q := range p.st.Queue {
			if q.Text == want {
				p.st.Queue = append(p.st.Queue[:i:i], p.st.Queue[i+1:]...)
				t.Skip("queue-operation")
				return nil
			}
		}
		// A remove with no enqueue before it: Claude Code 2.1.207 writes
		// steering text typed while the agent ran only here, so this record
		// is the one place its words are.
		p.queued(r, text, t)
	case "popAll":
		if err := p.unqueue(true, ""); err != nil {
			return err
		}
		t.Skip("queue-operation")
	default: // dequeue: the prompt follows as a user record
		t.Skip("queue-operation")
	}
	return nil
}

// queued imports a queue-operation's text as a user message at the
// record (its place in time, classified like any user text) and returns the
// message's key; false when there is nothing to import (counted).
func (p *parser) queued(r *record, text string, t *importer.Tally) (string, bool) {
	if strings.TrimSpace(text) == "" {
		t.Skip("empty messages")
		return "", false
	}
	ts, err := time.Parse(time.RFC3339Nano, r.Timestamp)
	if err != nil {
		t.Malformed("bad timestamp %q", r.Timestamp)
		return "", false
	}
	content, kind, keep := classify(text, false, false)
	if !keep {
		t.Skip("empty command output")
		return "", false
	}
	s := p.sessionFor(r, ts)
	if s.Session.StartedAt.IsZero() || ts.Before(s.Session.StartedAt) {
		s.Session.StartedAt = ts
	}
	if ts.After(s.Session.EndedAt) {
		s.Session.EndedAt = ts
	}
	sum := sha256.Sum256([]byte(text))
	k := key(r.Timestamp, "queued", hex.EncodeToString(sum[:6]))
	p.queuedAt[k] = len(p.msgs)
	p.msgs = append(p.msgs, store.Message{
		SessionID: s.Session.ID, Role: "user", Content: content, DisplayKind: kind,
		Timestamp: ts, SourceKey: k,
	})
	return k, true
}

// unqueue retracts the queued messages that match (all of them, or the
// first one whose text is text): dropped from this parse's messages, or,
// when an earlier import already stored one, the file is read again from
// the start (importer.ErrRestart) so that the text is imported once.
func (p *parser) unqueue(all bool, text string) error {
	var kept []queued
	done := false
	for _, q := range p.st.Queue {
		if done || !all && q.Text != text {
			kept = append(kept, q)
			continue
		}
		i, ok := p.queuedAt[q.Key]
		if !ok {
			return importer.ErrRestart
		}
		p.drop[i] = true
		done = !all
	}
	p.st.Queue = kept
	return nil
}

// queueText is a queue-operation's content: a string, or content blocks
// whose text parts are joined.
func queueText(raw json.RawMessage) string { return textutil.FlattenParts(raw) }

// collapse is text with its whitespace collapsed, for comparing a queued
// text with the prompt that repeats it.
func collapse(s string) string { return strings.Join(strings.Fields(s), " ") }
