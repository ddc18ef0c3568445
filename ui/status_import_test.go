package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/x/ansi"
	"github.com/recall-dev/recall/store"
)

// TestStatusImportFits: at 80 columns the import's progress, ETA included,
// keeps its place on the status line (the last answer's index and count
// give way); at 120 both fit.
func TestStatusImportFits(t *testing.T) {
	now := time.Now()
	p := store.ImportProgress{Source: "claude-code", FilesDone: 295, FilesTotal: 2000, Messages: 188800,
		BytesDone: 100, BytesTotal: 1000, Started: now.Add(-10 * time.Second), Updated: now}
	for _, tc := range []struct {
		w          int
		wantSearch bool
	}{{80, false}, {120, true}} {
		s := statusLine{styles: MonochromeStyles(), search: "recent · 162 sessions"}
		s.setImport(p, true)
		h := help.New()
		line := ansi.Strip(s.view(tc.w, &h, nil))
		if !strings.Contains(line, "importing claude-code 295/2000 files · 188,800 msgs · ETA 1:30") {
			t.Errorf("%d columns: %q lacks the import's progress", tc.w, line)
		}
		if got := strings.Contains(line, "recent · 162 sessions"); got != tc.wantSearch {
			t.Errorf("%d columns: %q shows the answer: %v, want %v", tc.w, line, got, tc.wantSearch)
		}
	}
}
