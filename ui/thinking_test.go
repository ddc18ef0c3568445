package ui

import (
	"context"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/recall-dev/recall/store"
)

// TestThinkingToggle: an assistant message's thinking is folded to one line
// that says T shows it, and T (thinking: true) shows it in full; the key is
// bound and listed in the help.
func TestThinkingToggle(t *testing.T) {
	msgs := []store.Message{
		{ID: 1, Role: "user", Content: "List the files"},
		{ID: 2, Role: "assistant", Content: "The project holds notes.txt.", Reasoning: "The person wants the files; ls shows them."},
	}
	for _, open := range []bool{false, true} {
		doc, err := renderTranscript(context.Background(), newMarkdown(nil, true), newStyles(true),
			transcriptInput{msgs: msgs, width: 80, thinking: open})
		if err != nil {
			t.Fatal(err)
		}
		text := ansi.Strip(strings.Join(doc.raw, "\n"))
		folded := strings.Contains(text, "✻ thinking (8 words, T shows)")
		full := strings.Contains(text, "ls shows them")
		if folded == open || full != open {
			t.Errorf("thinking=%v: folded line %v, full text %v:\n%s", open, folded, full, text)
		}
	}
	k := DefaultKeyMap()
	if got := k.ToggleThinking.Keys(); len(got) != 1 || got[0] != "T" {
		t.Errorf("ToggleThinking keys = %v", got)
	}
	listed := false
	for _, col := range k.FullHelp() {
		for _, b := range col {
			if b.Help().Desc == "thinking" {
				listed = true
			}
		}
	}
	if !listed {
		t.Error("the thinking key is not in the help")
	}
}
