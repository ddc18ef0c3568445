package recall

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/recall-dev/recall/recall/llm/llmtest"
	"github.com/recall-dev/recall/recall/secrets"
	"github.com/recall-dev/recall/store"
)

// openKinds is a Claude Code session whose rows with a display kind (a
// command, command output, a compaction summary, an interruption marker)
// sit around the person's prompts, long enough for bookends.
func openKinds(t *testing.T) *store.Store {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "state.db"), store.Options{Create: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	start := time.Date(2026, 7, 1, 8, 0, 0, 0, time.UTC)
	msgs := []store.Message{
		{Role: "user", Content: "/clear", DisplayKind: store.DisplayKindCommand},
		{Role: "user", Content: "Set model to opus", DisplayKind: store.DisplayKindAgent},
		{Role: "user", Content: "Add pagination to the orders endpoint"},
		{Role: "assistant", Content: "Reading the orders route."},
	}
	for i := 0; i < 6; i++ {
		msgs = append(msgs, store.Message{Role: "user", Content: fmt.Sprintf("step %d", i)},
			store.Message{Role: "assistant", Content: fmt.Sprintf("did step %d", i)})
	}
	msgs = append(msgs, store.Message{Role: "user", Content: "This session is being continued from a previous conversation. Summary: zebracursor pagination was added.",
		DisplayKind: store.DisplayKindCompaction})
	for i := 6; i < 12; i++ {
		msgs = append(msgs, store.Message{Role: "user", Content: fmt.Sprintf("step %d", i)},
			store.Message{Role: "assistant", Content: fmt.Sprintf("did step %d", i)})
	}
	msgs = append(msgs, store.Message{Role: "user", Content: "[Request interrupted by user]", DisplayKind: store.DisplayKindAgent})
	for i := range msgs {
		msgs[i].SessionID, msgs[i].Timestamp = "k", start.Add(time.Duration(i)*time.Minute)
	}
	err = st.Write(ctx, func(tx *store.Tx) error {
		if err := tx.UpsertSession(store.Session{ID: "k", Source: "claude-code", StartedAt: start}); err != nil {
			return err
		}
		_, err := tx.InsertMessages(msgs)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// TestMatchedRoleOfAgentText: a hit in text the agent program wrote into a
// user record is reported as "system" with its display kind, and the
// bookends around it are the person's prompts and the replies.
func TestMatchedRoleOfAgentText(t *testing.T) {
	e := New(openKinds(t), Options{})
	d, err := e.Discover(context.Background(), "zebracursor", DiscoverOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Results) != 1 {
		t.Fatalf("results = %+v", d.Results)
	}
	r := d.Results[0]
	if r.MatchedRole != "system" || r.MatchedDisplayKind != store.DisplayKindCompaction {
		t.Errorf("matched role %q, kind %q; want system, compaction", r.MatchedRole, r.MatchedDisplayKind)
	}
	if len(r.BookendStart) == 0 || len(r.BookendEnd) == 0 {
		t.Fatalf("no bookends: %+v", r)
	}
	if got := r.BookendStart[0].Content; got != "Add pagination to the orders endpoint" {
		t.Errorf("first bookend = %q", got)
	}
	for _, m := range append(append([]store.Message{}, r.BookendStart...), r.BookendEnd...) {
		if m.DisplayKind != "" {
			t.Errorf("bookend with display kind %q: %q", m.DisplayKind, m.Content)
		}
	}
}

// TestTranscriptSpeakers: the transcript a model summarizes and the
// offline extractive summary never label a command or text the agent wrote
// as the user's words.
func TestTranscriptSpeakers(t *testing.T) {
	msgs := []store.Message{
		{ID: 1, Role: "user", Content: "/compact focus on tests", DisplayKind: store.DisplayKindCommand},
		{ID: 2, Role: "user", Content: "This session is being continued: tests for pagination are pending.", DisplayKind: store.DisplayKindCompaction},
		{ID: 3, Role: "user", Content: "[Request interrupted by user] pagination", DisplayKind: store.DisplayKindAgent},
		{ID: 4, Role: "user", Content: "write the pagination tests"},
	}
	text := formatTranscript(msgs).text
	for _, want := range []string{"#1 [USER COMMAND]: /compact", "#2 [COMPACTION SUMMARY]: This session", "#3 [SYSTEM]: [Request", "#4 [USER]: write"} {
		if !strings.Contains(text, want) {
			t.Errorf("transcript lacks %q:\n%s", want, text)
		}
	}
	sum := extractiveSummary(msgs, queryWords("pagination"), Positions(msgs), secrets.Messages)
	for _, want := range []string{"#2 of 4 (compaction summary): This session", "#3 of 4 (system): [Request", "#4 of 4 (user): write"} {
		if !strings.Contains(sum, want) {
			t.Errorf("extractive summary lacks %q:\n%s", want, sum)
		}
	}
	if strings.Contains(sum, "(user): This session") || strings.Contains(sum, "(user): [Request") {
		t.Errorf("agent text presented as the user's:\n%s", sum)
	}
}

// TestSummarizePromptSpeakers: the transcript sent to the model labels the
// compaction summary and the agent's notes, never as [USER], and the system
// prompt says what the labels mean.
func TestSummarizePromptSpeakers(t *testing.T) {
	var mu sync.Mutex
	var prompt string
	srv := &llmtest.FakeServer{Reply: func(p string) []string {
		mu.Lock()
		defer mu.Unlock()
		prompt = p
		return llmtest.WordDeltas("ok")
	}}
	e := modelEngine(t, &fixture{st: openKinds(t)}, srv, 1, nil)
	d, err := e.Discover(context.Background(), "zebracursor", DiscoverOptions{})
	if err != nil || len(d.Results) != 1 {
		t.Fatalf("discover: %v %+v", err, d)
	}
	e.Summarize(context.Background(), "zebracursor", d.Results, nil)
	mu.Lock()
	defer mu.Unlock()
	for _, want := range []string{"[COMPACTION SUMMARY]: This session is being continued", "[USER]: step 5"} {
		if !strings.Contains(prompt, want) {
			t.Errorf("prompt lacks %q:\n%s", want, prompt)
		}
	}
	if strings.Contains(prompt, "[USER]: This session") || strings.Contains(prompt, "[USER]: /clear") {
		t.Errorf("prompt presents agent text or a command as the user's:\n%s", prompt)
	}
	if !strings.Contains(systemPrompt, "[COMPACTION SUMMARY] were written by the agent program") {
		t.Error("the system prompt does not explain the speaker labels")
	}
}
