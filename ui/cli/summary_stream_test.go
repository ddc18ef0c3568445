package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/recall-dev/recall/recall"
)

// A hostile model splits an OSC (a title change) over two deltas: the
// printed summary keeps neither half. Sanitizing each delta alone printed
// the second half ("evil") as text.
func TestSummaryDeltasSanitisedAcrossChunks(t *testing.T) {
	var out bytes.Buffer
	env := &Env{Ctx: context.Background(), Stdout: &out}
	p := newSummaryPrinter(env, []recall.Result{{SessionID: "s1", Title: "t"}})
	deltas := []string{"The fix ", "\x1b]0;ti", "tle-evil\x07", "was a lock", " \u200fdone"}
	for _, d := range deltas {
		p.on(recall.SummaryEvent{Index: 0, SessionID: "s1", Delta: d})
	}
	text := strings.Join(deltas, "")
	p.on(recall.SummaryEvent{Index: 0, SessionID: "s1", Done: true, Summary: &recall.Summary{SessionID: "s1", Kind: recall.SummaryModel, Model: "m", Text: text}})
	p.finish()
	got := out.String()
	if strings.Contains(got, "evil") || strings.Contains(got, "\x1b") || strings.Contains(got, "\u200f") || !strings.Contains(got, "The fix was a lock done") {
		t.Errorf("printed %q", got)
	}
}
