package recall

import (
	"strings"

	"github.com/recall-dev/recall/store"
)

// The one naming rule for a session everywhere it is listed (recent, the
// TUI list and its search results, MCP results): its title, else the first
// thing the person typed in it, as `recall recent` has always named it.

// nameChars is how much of a first prompt names a session (the list
// preview's length, store.SessionSummary.Preview).
const nameChars = 60

// SessionName is a session's name: title, else firstPrompt with its
// whitespace collapsed and cut to 60 characters plus "...", else "".
func SessionName(title, firstPrompt string) string {
	if strings.TrimSpace(title) != "" {
		return title
	}
	s := strings.Join(strings.Fields(firstPrompt), " ")
	if r := []rune(s); len(r) > nameChars {
		return string(r[:nameChars]) + "..."
	}
	return s
}

// FirstPrompt is the first prompt of the result's session among the
// evidence already read (the opening bookends, read when the window does
// not start the session, then the window), so naming costs no store call;
// "" when the evidence holds none.
func (r Result) FirstPrompt() string {
	for _, m := range append(append([]store.Message{}, r.BookendStart...), r.Messages...) {
		if m.Prompt() && strings.TrimSpace(m.Content) != "" {
			return ReadableText(m)
		}
	}
	return ""
}

// Name is the result's name by SessionName: its title, else its first prompt.
func (r Result) Name() string { return SessionName(r.Title, r.FirstPrompt()) }
