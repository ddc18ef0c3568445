package cli

import (
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/recall-dev/recall/store/importer"
	"github.com/recall-dev/recall/ui/termtext"
	"golang.org/x/term"
)

// defaultWidth is the line width of text output that goes to a file or a
// pipe with no $COLUMNS.
const defaultWidth = 100

// termWidth is how many cells a line of text output may take: the width of
// the terminal stdout is, else $COLUMNS, else defaultWidth.
func (env *Env) termWidth() int {
	if f, ok := env.Stdout.(*os.File); ok && env.StdoutIsTerminal {
		if w, _, err := term.GetSize(int(f.Fd())); err == nil && w > 0 {
			return w
		}
	}
	if n, err := strconv.Atoi(strings.TrimSpace(os.Getenv("COLUMNS"))); err == nil && n > 0 {
		return n
	}
	return defaultWidth
}

// fitLine cuts a line (which may carry SGR styling) to w display cells, so
// a terminal never wraps it mid-word; wide characters count two cells and
// are never split. Styling cut open is closed.
func fitLine(s string, w int) string {
	t := termtext.Truncate(s, max(w, 10))
	if t != s && strings.Contains(t, "\x1b[") {
		t += "\x1b[0m"
	}
	return t
}

// humanTime is the one date format of text output, the TUI's:
// "2026-07-20 14:05" in local time ("unknown" when zero).
func humanTime(t time.Time) string {
	if t.IsZero() {
		return "unknown"
	}
	return t.Local().Format("2006-01-02 15:04")
}

// plural is "1 session", "2 sessions".
func plural(n int, one, many string) string { return importer.Count(n, one, many) }

// positionsOf names messages of a session by where they are in it ("#6 of
// 8"), as the TUI and the summaries do; a message it cannot place (the
// session could not be read) is named by its id.
func positionsOf(ids []int64) func(id int64) string {
	at := make(map[int64]int, len(ids))
	for i, id := range ids {
		at[id] = i + 1
	}
	return func(id int64) string {
		if n, ok := at[id]; ok {
			return "#" + strconv.Itoa(n) + " of " + strconv.Itoa(len(ids))
		}
		return "message id " + strconv.FormatInt(id, 10)
	}
}

// fieldLines lays parts out as "a · b · c" lines of at most w cells, the
// first starting with lead and the others with indent, breaking only
// between parts: a part (a session id above all) is never cut, and one
// wider than the line stands alone on its line.
func fieldLines(lead, indent string, parts []string, w int) []string {
	var lines []string
	cur := lead
	fresh := true // cur holds no part yet
	for _, p := range parts {
		switch {
		case fresh:
			cur += p
		case termtext.Width(cur)+3+termtext.Width(p) <= w:
			cur += " · " + p
		default:
			lines = append(lines, cur)
			cur = indent + p
		}
		fresh = false
	}
	return append(lines, cur)
}

// proseLines wraps a line of prose to w cells, its continuation lines
// indented with indent.
func proseLines(s string, w int, indent string) []string {
	return termtext.Wrap(s, max(w, 20), indent)
}
