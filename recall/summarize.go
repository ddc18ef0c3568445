package recall

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/recall-dev/recall/recall/llm"
	"github.com/recall-dev/recall/recall/secrets"
	"github.com/recall-dev/recall/store"
)

// SummaryKind says what produced a summary.
type SummaryKind string

// The kinds of summary.
const (
	SummaryModel      SummaryKind = "model"       // written by the configured model
	SummaryExtractive SummaryKind = "extractive"  // offline: quoted lines, no model configured
	SummaryRawPreview SummaryKind = "raw-preview" // the model failed: the transcript's start
)

// Summary is the phase-2 answer for one result.
type Summary struct {
	SessionID string
	Text      string
	Kind      SummaryKind
	Reason    string // why it is not a model summary ("" for a model summary)
	Model     string // the model that wrote it (model summaries only)
}

// SummaryEvent reports progress of one result's summary. Deltas of one
// result arrive in order; events of different results interleave. The Done
// event carries the final Summary, whose Text replaces any deltas shown
// (a stream that failed mid-way is replaced by its raw preview).
type SummaryEvent struct {
	Index     int // index into the results passed to Summarize
	SessionID string
	Delta     string
	Done      bool
	Summary   *Summary // set when Done
}

// RawPreviewLabel starts a summary that is the transcript's beginning
// because the model failed (Hermes's label).
const RawPreviewLabel = "[Raw preview — summarization unavailable]"

// rawPreviewChars is how much transcript a raw preview shows (Hermes: 500).
const rawPreviewChars = 500

// systemPrompt is Hermes's summarizer prompt (spec §7.2, verbatim) plus the
// grounding rules: cite message ids, state only what the transcript shows;
// and what the speaker labels mean (Speaker), so that text the agent
// program wrote is not taken for the user's.
const systemPrompt = "You are reviewing a past conversation transcript to help recall what happened. " +
	"Summarize the conversation with a focus on the search topic. Include:\n" +
	"1. What the user asked about or wanted to accomplish\n" +
	"2. What actions were taken and what the outcomes were\n" +
	"3. Key decisions, solutions found, or conclusions reached\n" +
	"4. Any specific commands, files, URLs, or technical details that were important\n" +
	"5. Anything left unresolved or notable\n\n" +
	"Be thorough but concise. Preserve specific details (commands, paths, error messages) " +
	"that would be useful to recall. Write in past tense as a factual recap.\n\n" +
	"Every transcript entry starts with its message id, like #123. After each statement, cite the " +
	"message ids it rests on in square brackets, like [#123] or [#123, #130]. State only what the " +
	"transcript shows; if it does not say, leave it out.\n\n" +
	"Entries labelled [USER] are what the user typed; [USER COMMAND] is a command the user ran in the " +
	"agent program (such as /compact). Entries labelled [SYSTEM] or [COMPACTION SUMMARY] were written by " +
	"the agent program itself (command output, interruption notices, a summary of earlier context): never " +
	"present them as the user's words."

// Summarize writes a summary of each result, up to the engine's concurrency
// at a time, streaming model text through onEvent (which may be called from
// several goroutines at once and must be safe for that; nil is allowed). It
// never fails: a result falls back to an extractive summary when no model is
// configured and to a raw preview when the model failed, and the other
// results carry on. The summaries are returned in the order of results.
func (e *Engine) Summarize(ctx context.Context, query string, results []Result, onEvent func(SummaryEvent)) []Summary {
	out := make([]Summary, len(results))
	if len(results) == 0 {
		return out
	}
	emit := func(ev SummaryEvent) {
		if onEvent != nil {
			onEvent(ev)
		}
	}
	sem := make(chan struct{}, min(e.opts.Concurrency, len(results)))
	var wg sync.WaitGroup
	for i := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := &results[i]
			s := e.summarizeOne(ctx, sem, query, r, func(d string) {
				emit(SummaryEvent{Index: i, SessionID: r.SessionID, Delta: d})
			})
			out[i] = s
			emit(SummaryEvent{Index: i, SessionID: r.SessionID, Done: true, Summary: &s})
		}()
	}
	wg.Wait()
	return out
}

// summarizeOne builds the result's transcript window and summarizes it.
func (e *Engine) summarizeOne(ctx context.Context, sem chan struct{}, query string, r *Result, onDelta func(string)) Summary {
	msgs, loadErr := e.st.Messages(ctx, r.SessionID)
	pos := Positions(msgs) // "#47 of 188", while msgs is the whole session
	if loadErr != nil || len(msgs) == 0 {
		msgs = evidenceMessages(r) // the window phase 1 already read
		pos = Positions(nil)
	}
	t := formatTranscript(msgs)
	parsed := r.Parsed
	if parsed.Empty() { // a row from browsing, not from a search of this query
		parsed = store.ParseQuery(query)
	}
	terms := windowTerms(parsed)
	w := matchWindow(t.text, terms, e.opts.Budget)
	if e.client == nil {
		return Summary{SessionID: r.SessionID, Kind: SummaryExtractive, Reason: "no model configured",
			Text: extractiveSummary(t.messagesIn(w.start, w.end), terms, pos, e.shownMessages)}
	}
	// The model reads the window's messages redacted, whatever the
	// options: redacted whole, then formatted and cut again.
	shown := formatTranscript(secrets.Messages(t.messagesIn(w.start, w.end)))
	text := matchWindow(shown.text, terms, e.opts.Budget).render()
	fail := func(err error) Summary {
		reason := err.Error()
		if loadErr != nil {
			reason += fmt.Sprintf(" (and loading the session failed: %v)", loadErr)
		}
		return Summary{SessionID: r.SessionID, Kind: SummaryRawPreview, Reason: reason, Text: rawPreview(text, reason)}
	}
	select {
	case sem <- struct{}{}:
		defer func() { <-sem }()
	case <-ctx.Done():
		return fail(ctx.Err())
	}
	topic := secrets.Text(query) // a person may search for the key itself
	prompt := fmt.Sprintf("Search topic: %s\nSession source: %s\nSession date: %s\n\nCONVERSATION TRANSCRIPT:\n%s\n\nSummarize this conversation with focus on: %s",
		topic, r.Source, FormatWhen(r.When), text, topic)
	out, err := e.client.Stream(ctx, []llm.Message{
		{Role: "system", Content: systemPrompt},
		{Role: "user", Content: prompt},
	}, onDelta)
	if err != nil {
		return fail(fmt.Errorf("summarize with %s: %w", e.opts.LLM.Model, err))
	}
	return Summary{SessionID: r.SessionID, Kind: SummaryModel, Model: e.opts.LLM.Model, Text: out}
}

// rawPreview is Hermes's fallback: the label, the first 500 characters of
// the transcript window, and why the model's summary is missing.
func rawPreview(text, reason string) string {
	preview := "No preview available."
	if text != "" {
		preview = clipRunesMark(text, rawPreviewChars, "\n…[truncated]")
	}
	return RawPreviewLabel + "\n" + preview + "\n\nReason: " + reason
}

// clipRunesMark clips s to n characters, appending mark when it cut.
func clipRunesMark(s string, n int, mark string) string {
	if len(s) <= n || utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n]) + mark
}

// evidenceMessages returns a result's bookends and window as one ascending list.
func evidenceMessages(r *Result) []store.Message {
	all := make([]store.Message, 0, len(r.BookendStart)+len(r.Messages)+len(r.BookendEnd))
	seen := map[int64]bool{}
	for _, part := range [][]store.Message{r.BookendStart, r.Messages, r.BookendEnd} {
		for _, m := range part {
			if !seen[m.ID] {
				seen[m.ID] = true
				all = append(all, m)
			}
		}
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].ID < all[j].ID })
	return all
}

// WhenLayout is how a session's time is shown (Hermes's "%B %d, %Y at %I:%M %p").
const WhenLayout = "January 02, 2006 at 03:04 PM"

// FormatWhen formats a session time in local time as Hermes does, "unknown" when zero.
func FormatWhen(t time.Time) string {
	if t.IsZero() {
		return "unknown"
	}
	return t.Local().Format(WhenLayout)
}
