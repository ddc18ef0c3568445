package recall

import (
	"context"
	"fmt"
	"strings"

	"github.com/recall-dev/recall/recall/secrets"
	"github.com/recall-dev/recall/store"
)

// What the engine shows passes recall/secrets first, whole, and is cut
// after: a Discovery's titles, snippets and evidence, Browse's rows, the
// offline summary's quotes (for a person or an agent), and every word of a
// summary's prompt (for a model). Options.ShowSecrets (a person at their
// own terminal asked) keeps the secrets in what is shown; a prompt is
// redacted whatever the options say.

// ShowingSecrets returns a copy of e that keeps secrets in what it shows a
// person (evidence, snippets, titles, offline summaries); the prompts of
// model summaries stay redacted.
func (e *Engine) ShowingSecrets() *Engine {
	c := *e
	c.opts.ShowSecrets = true
	return &c
}

// shownMessages is msgs as the engine shows them.
func (e *Engine) shownMessages(msgs []store.Message) []store.Message {
	if e.opts.ShowSecrets {
		return msgs
	}
	return secrets.Messages(msgs)
}

// showResults redacts each result's title, evidence and snippet. A snippet
// is redacted against the whole message it was cut from (the anchor: in
// the evidence when it was read, else read here, all in one query), then
// made readable.
func (e *Engine) showResults(ctx context.Context, results []Result) error {
	if e.opts.ShowSecrets {
		for i := range results {
			results[i].Snippet = ReadableSnippet(results[i].rawSnippet)
		}
		return nil
	}
	var ask []int64
	for i := range results {
		if r := &results[i]; cutSnippet(r) && anchorIn(r.Messages, r.MatchMessageID) == nil {
			ask = append(ask, r.MatchMessageID)
		}
	}
	var read map[int64]store.Message
	if len(ask) > 0 {
		var err error
		if read, err = e.st.MessagesByID(ctx, ask); err != nil {
			return fmt.Errorf("read the messages snippets were cut from: %w", err)
		}
	}
	for i := range results {
		r := &results[i]
		r.Title = secrets.Title(r.Title)
		var whole []string
		switch m := anchorIn(r.Messages, r.MatchMessageID); {
		case r.MatchedRole == TitleMatchRole:
			// "Session title matched: <title>": the title redacted as a title.
			r.rawSnippet = strings.Replace(r.rawSnippet, r.rawTitle, secrets.Title(r.rawTitle), 1)
		case !cutSnippet(r):
		case m != nil:
			whole = []string{m.Content, m.ToolCalls, m.Reasoning}
		default:
			m := read[r.MatchMessageID]
			whole = []string{m.Content, m.ToolCalls, m.Reasoning}
		}
		r.Snippet = ReadableSnippet(secrets.Within(r.rawSnippet, whole...))
		n1, n2 := len(r.BookendStart), len(r.Messages)
		all := secrets.Messages(append(append(append([]store.Message{}, r.BookendStart...), r.Messages...), r.BookendEnd...))
		r.BookendStart, r.Messages, r.BookendEnd = nilIfEmpty(all[:n1:n1]), nilIfEmpty(all[n1:n1+n2:n1+n2]), nilIfEmpty(all[n1+n2:])
	}
	return nil
}

// cutSnippet reports whether the store cut r's snippet from a longer text
// (a snippet it did not cut is its own whole).
func cutSnippet(r *Result) bool {
	return r.MatchedRole != TitleMatchRole && (strings.HasPrefix(r.rawSnippet, "…") || strings.HasSuffix(r.rawSnippet, "…"))
}

// anchorIn is the message id among msgs, nil when it is not there.
func anchorIn(msgs []store.Message, id int64) *store.Message {
	for i := range msgs {
		if msgs[i].ID == id {
			return &msgs[i]
		}
	}
	return nil
}

func nilIfEmpty(msgs []store.Message) []store.Message {
	if len(msgs) == 0 {
		return nil
	}
	return msgs
}

// showListings redacts browse rows (secrets.Listings).
func (e *Engine) showListings(ctx context.Context, list []store.SessionSummary) ([]store.SessionSummary, error) {
	if e.opts.ShowSecrets {
		return list, nil
	}
	return secrets.Listings(ctx, list, e.st.FirstPrompts)
}
