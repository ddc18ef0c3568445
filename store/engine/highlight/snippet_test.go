package highlight

import (
	"strings"
	"testing"

	"github.com/recall-dev/recall/store/engine"
	"github.com/recall-dev/recall/store/engine/query"
)

func TestSnippetMarksAndCuts(t *testing.T) {
	text := strings.Repeat("padding words ", 30) + "the Docker networking error was fixed " + strings.Repeat("tail ", 40)
	q := query.Parse("docker error", []string{"content"}, false)
	s := Snippet(text, q)
	if !strings.Contains(s, engine.HighlightStart+"Docker"+engine.HighlightEnd) || !strings.Contains(s, engine.HighlightStart+"error"+engine.HighlightEnd) {
		t.Fatalf("terms not marked: %q", s)
	}
	if n := len([]rune(s)); n > 200 {
		t.Fatalf("snippet too long: %d runes", n)
	}
	if !strings.HasPrefix(s, "…") || !strings.HasSuffix(s, "…") {
		t.Fatalf("cut ends not marked: %q", s)
	}
}
