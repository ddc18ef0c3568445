package secrets

import (
	"context"
	"runtime"
	"strings"
	"sync"

	"github.com/recall-dev/recall/store"
)

// The store's values as they may leave recall. Only text is redacted:
// ids, sources, paths, times and counts are what a reader uses to find a
// session again, and no rule is meant for them.

// Session returns s with its text redacted: title, model configuration
// (JSON that may hold a key) and end reason.
func Session(s store.Session) store.Session {
	s, _ = SessionCount(s)
	return s
}

// SessionCount is Session that also says how many secrets it replaced.
func SessionCount(s store.Session) (store.Session, int) {
	var set Set
	title := Title(s.Title)
	n := strings.Count(title, "[REDACTED:") - strings.Count(s.Title, "[REDACTED:")
	s.Title = title
	s.ModelConfig = set.json(s.ModelConfig)
	s.EndReason = set.Text(s.EndReason)
	return s, set.Replaced + max(n, 0)
}

// message returns m with its text redacted: content, tool calls (their
// arguments read as decoded) and reasoning.
func (s *Set) message(m store.Message) store.Message {
	m.Content = s.Text(m.Content)
	m.ToolCalls = s.json(m.ToolCalls)
	m.Reasoning = s.Text(m.Reasoning)
	return m
}

// Messages returns copies of msgs redacted as a Set: a secret found in
// one message is taken out of every other. A long session is scanned on
// every core.
func Messages(msgs []store.Message) []store.Message {
	out, _ := MessagesCount(msgs)
	return out
}

// MessagesCount is Messages that also says how many secrets it replaced.
func MessagesCount(msgs []store.Message) ([]store.Message, int) {
	if len(msgs) == 0 {
		return msgs, 0
	}
	warm(msgs)
	var set Set
	for _, m := range msgs {
		set.Learn(m.Content, m.ToolCalls, m.Reasoning)
	}
	out := make([]store.Message, len(msgs))
	for i, m := range msgs {
		out[i] = set.message(m)
	}
	return out, set.Replaced
}

// warmBytes: below this much text one core scans faster than several start.
const warmBytes = 64 << 10

// warm scans the messages' texts on every core, filling the cache that
// Learn and Text then read.
func warm(msgs []store.Message) {
	total := 0
	for _, m := range msgs {
		total += len(m.Content) + len(m.ToolCalls) + len(m.Reasoning)
	}
	workers := min(runtime.GOMAXPROCS(0), len(msgs))
	if total < warmBytes || workers < 2 {
		return
	}
	next := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				cached(msgs[i].Content)
				cached(msgs[i].ToolCalls)
				cached(msgs[i].Reasoning)
			}
		}()
	}
	for i := range msgs {
		next <- i
	}
	close(next)
	wg.Wait()
}

// Listing returns a session list row redacted. Its preview was cut from the
// session's first prompt: given that prompt whole, the preview is cut
// again from the prompt redacted (redact, then cut).
func Listing(s store.SessionSummary, firstPrompt string) store.SessionSummary {
	s.Session = Session(s.Session)
	if firstPrompt != "" {
		s.Preview = store.Preview(Text(firstPrompt))
	} else {
		s.Preview = Text(s.Preview)
	}
	return s
}

// Listings redacts list rows (Listing): a preview that was cut is cut
// again from its session's first prompt, which firstPrompts reads for
// those rows only.
func Listings(ctx context.Context, list []store.SessionSummary, firstPrompts func(context.Context, []string) (map[string]string, error)) ([]store.SessionSummary, error) {
	var cut []string
	for _, s := range list {
		if strings.HasSuffix(s.Preview, "...") {
			cut = append(cut, s.ID)
		}
	}
	var firsts map[string]string
	if len(cut) > 0 {
		var err error
		if firsts, err = firstPrompts(ctx, cut); err != nil {
			return nil, err
		}
	}
	for i, s := range list {
		list[i] = Listing(s, firsts[s.ID])
	}
	return list, nil
}

// Hit returns a search hit redacted: its session's title, and its snippet
// against the texts of its message (content, tool calls, reasoning: the
// snippet is cut from one of them).
func Hit(h store.Hit, m store.Message) store.Hit {
	h.SessionTitle = Title(h.SessionTitle)
	h.Snippet = Within(h.Snippet, m.Content, m.ToolCalls, m.Reasoning)
	return h
}

// AtRest redacts text before the store keeps it (store.TextRedactor):
// config.json's "redact_at_import", and `recall redact --all` for what was
// stored before.
type AtRest struct{}

// Text redacts prose.
func (AtRest) Text(s string) string { return Text(s) }

// JSON redacts JSON text, keeping it valid.
func (AtRest) JSON(s string) string { return JSON(s) }

// Found lists the secrets of s as s holds them (escapes and all).
func (AtRest) Found(s string) []string {
	r := cached(s)
	out := make([]string, 0, len(r.spans))
	for _, sp := range r.spans {
		if sp.end <= len(s) {
			out = append(out, s[sp.start:sp.end])
		}
	}
	return out
}
