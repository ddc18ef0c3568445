package ui

import (
	"context"
	"errors"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/recall-dev/recall/store"
)

// Transcripts are untrusted: a title change or a clipboard write (OSC 52)
// can hide in any stored field, raw, JSON-escaped inside tool-call
// arguments (decoded twice before display) or as HTML entities (decoded by
// Glamour). The payloads below are each form of the same attack.
const (
	evilRaw    = "\x1b]0;PWNED-TITLE\x07\x1b]52;c;cHduZWQ=\x07\x1b[2J\x1b[?1049l\u009b31m\u202e"
	evilJSON   = `\u001b]0;PWNED-TITLE\u0007\u001b]52;c;cHduZWQ=\u0007\u001b[2J`
	evilEntity = "&#27;]0;PWNED-TITLE&#7;&#x1b;]52;c;cHduZWQ=&#x07;&#X1B;[2J&#x202e;"
)

// hostileBackend stores the payloads in every field the TUI shows.
type hostileBackend struct{ *fakeBackend }

func newHostileBackend() hostileBackend {
	id := "h-1" + evilRaw
	b := &fakeBackend{msgs: map[string][]store.Message{}, hasModel: true,
		summary: "The model says " + evilRaw + " and " + evilEntity + " docker done."}
	b.sessions = []store.SessionSummary{
		{Session: store.Session{ID: id, Source: "claude-code" + evilRaw, Model: "sonnet" + evilRaw, Title: "docker " + evilRaw + " title",
			Cwd: "/tmp/" + evilRaw, StartedAt: testNow}, Preview: "docker preview " + evilRaw, LastActive: testNow},
		{Session: store.Session{ID: "broken", Source: "cli", Title: "docker broken", StartedAt: testNow.Add(-1)}, LastActive: testNow.Add(-1)},
	}
	args := `{\"command\":\"docker ps ` + strings.ReplaceAll(evilJSON, `\`, `\\`) + `\",\"description\":\"` + strings.ReplaceAll(evilJSON, `\`, `\\`) + `\"}`
	b.msgs[id] = []store.Message{
		{ID: 1, SessionID: id, Role: "user", Content: "docker content " + evilRaw + " entity " + evilEntity, Timestamp: testNow},
		{ID: 2, SessionID: id, Role: "assistant", Content: "docker **bold** " + evilEntity + "\n\n```sh\ndocker " + evilRaw + evilEntity + "\n```",
			ToolCalls: `[{"id":"toolu_` + evilJSON + `","type":"function","function":{"name":"Bash` + evilJSON + `","arguments":"` + args + `"}}]`, Timestamp: testNow},
		{ID: 3, SessionID: id, Role: "tool", ToolName: "Bash" + evilRaw, Content: "docker result " + evilRaw + evilEntity, Timestamp: testNow},
		{ID: 4, SessionID: id, Role: "weird" + evilRaw, Content: "docker " + evilJSON, Timestamp: testNow},
	}
	return hostileBackend{b}
}

func (h hostileBackend) Transcript(ctx context.Context, id string) (store.Session, []store.Message, error) {
	if id == "broken" {
		return store.Session{}, nil, errors.New("cannot read " + evilRaw)
	}
	return h.fakeBackend.Transcript(ctx, id)
}

var sgrRE = regexp.MustCompile(`\x1b\[[0-9;:]*m`)

// checkScreen fails when anything but SGR styling would reach the terminal.
func checkScreen(t *testing.T, what, screen string) {
	t.Helper()
	rest := sgrRE.ReplaceAllString(screen, "")
	for i, r := range rest {
		if (r < 0x20 && r != '\n') || (r >= 0x7f && r <= 0x9f) || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) {
			t.Fatalf("%s: control %U reaches the screen at %d: %q", what, r, i, rest[max(0, i-30):min(len(rest), i+30)])
		}
	}
}

// Every field, every view: browse, search, the transcript compact and
// expanded (t), an in-pane search, the summary, an error, the pager's file.
func TestHostileTextNeverReachesTheTerminal(t *testing.T) {
	b := newHostileBackend()
	for _, size := range [][2]int{{120, 40}, {80, 24}} {
		d := newDriver(t, b, size[0], size[1])
		d.pump("browse", func() bool { return len(d.m.list.items) == 2 })
		d.pump("transcript", func() bool { return len(d.m.detail.doc.lines) > 0 })
		checkScreen(t, "browse", d.m.View())
		d.typ("docker")
		d.pump("search", func() bool {
			return d.m.finalSeq == d.m.seq && len(d.m.detail.doc.lines) > 0 && d.m.detail.query == "docker"
		})
		checkScreen(t, "search and transcript", d.m.View())
		d.key("tab")
		d.key("tab")
		for range 10 {
			d.key("pgdown")
			checkScreen(t, "transcript scrolled", d.m.View())
		}
		d.key("t")
		d.pump("expanded", func() bool { return d.m.detail.doc.expanded && !d.m.detail.loading })
		checkScreen(t, "raw tool view (t)", strings.Join(d.m.detail.doc.lines, "\n"))
		d.key("/")
		d.typ("docker")
		checkScreen(t, "in-pane search prompt", d.m.View())
		d.key("enter")
		d.pump("find", func() bool { return d.m.detail.doc.find == "docker" && !d.m.detail.loading })
		checkScreen(t, "in-pane search", strings.Join(d.m.detail.doc.lines, "\n"))
		d.key("n")
		checkScreen(t, "hit status", d.m.View())

		// The pager's file.
		t.Setenv("PAGER", "cat")
		if msg, ok := d.m.pager()().(execRequestMsg); ok {
			f := msg.cmd.Args[len(msg.cmd.Args)-1]
			body, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			checkScreen(t, "pager file", string(body))
			msg.cleanup()
		}

		// A summary from the model.
		d.key("esc")
		d.key("s")
		d.pump("summary", func() bool { return d.m.summary.done })
		checkScreen(t, "model summary", d.m.View())
		d.key("esc")

		// Errors naming hostile text.
		e := newDriver(t, b, size[0], size[1])
		e.pump("browse", func() bool { return len(e.m.list.items) == 2 })
		e.key("tab")
		e.key("down")
		e.pump("error", func() bool { return e.m.detail.err != nil })
		checkScreen(t, "load error", e.m.View())
		e.send(statusMsg{text: "search: " + evilRaw, err: true})
		checkScreen(t, "status error", e.m.View())
	}
}
