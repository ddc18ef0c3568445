package ui

import (
	"context"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/recall-dev/recall/store"
)

// TestTranscriptLabelsDisplayKinds: a slash command and text the agent
// program wrote into a user record are not labelled "user" in the pane; a
// row folded into a compaction summary says so.
func TestTranscriptLabelsDisplayKinds(t *testing.T) {
	msgs := []store.Message{
		{ID: 1, Role: "user", Content: "/compact focus on tests", DisplayKind: store.DisplayKindCommand},
		{ID: 2, Role: "user", Content: "This session is being continued from a previous conversation.", DisplayKind: store.DisplayKindCompaction},
		{ID: 3, Role: "user", Content: "[Request interrupted by user]", DisplayKind: store.DisplayKindAgent},
		{ID: 4, Role: "user", Content: "Return 400 for a bad cursor"},
		{ID: 5, Role: "assistant", Content: "an earlier turn", Inactive: true, Compacted: true},
	}
	doc, err := renderTranscript(context.Background(), newMarkdown(nil, true), newStyles(true), transcriptInput{msgs: msgs, width: 80})
	if err != nil {
		t.Fatal(err)
	}
	var labels []string
	for _, l := range doc.raw {
		if l = strings.TrimSpace(ansi.Strip(l)); strings.HasPrefix(l, "▍") {
			labels = append(labels, l)
		}
	}
	want := []string{"▍ user command", "▍ compaction summary", "▍ system", "▍ user", "▍ assistant · compacted"}
	if strings.Join(labels, "|") != strings.Join(want, "|") {
		t.Errorf("labels = %q, want %q", labels, want)
	}
}
