package ui

import (
	"strings"
	"testing"
)

// The detail pane redacts secrets by default; V reveals them (and hides
// them again).
func TestDetailRedactsSecrets(t *testing.T) {
	const token = "ghp_8xQ2mZr4Tn6Vb1Kc9Lp3Wd7Fh5Js0Ga2Ye4U"
	b := demoBackend()
	b.msgs["cc-1111"][3].Content = "pushed with GITHUB_TOKEN=" + token
	d := newDriver(t, b, 160, 40)
	d.pump("browse", func() bool { return len(d.m.list.items) == 4 })
	d.key("tab")
	if d.m.Focus() != "list" {
		t.Fatalf("focus %s", d.m.Focus())
	}
	d.pump("transcript", func() bool { return strings.Contains(d.screen(), "pushed with") })
	if s := d.screen(); strings.Contains(s, token) || !strings.Contains(s, "[REDACTED:github-pat]") {
		t.Fatalf("the detail pane shows the token, or no mark:\n%s", s)
	}
	d.key("tab") // V is the reading pane's
	d.key("V")
	d.pump("revealed", func() bool { return strings.Contains(d.screen(), token) })
	d.key("V")
	d.pump("redacted again", func() bool { return strings.Contains(d.screen(), "[REDACTED:github-pat]") })
}

// y copies the message as the pane shows it: redacted by default, as
// stored once V revealed the secrets. Before, y copied the stored text
// while the pane showed [REDACTED:...].
func TestYankCopiesRedactedUnlessRevealed(t *testing.T) {
	const token = "ghp_8xQ2mZr4Tn6Vb1Kc9Lp3Wd7Fh5Js0Ga2Ye4U"
	clip := &fakeClipboard{}
	b := demoBackend()
	b.msgs["cc-1111"][1].Content = "pushed with GITHUB_TOKEN=" + token + " busy"
	d := newDriverWith(t, b, 120, 30, Options{Clipboard: clip})
	d.typ("busy")
	d.pump("transcript", func() bool { return d.m.detail.session.ID == "cc-1111" && !d.m.detail.loading })
	d.key("tab")
	d.key("tab")
	d.key("y")
	d.pump("copied", func() bool { return strings.HasPrefix(d.m.status.msg, "copied") })
	if got := clip.last(); strings.Contains(got, token) || !strings.Contains(got, "[REDACTED:github-pat]") {
		t.Fatalf("y copied %q, want the token redacted", got)
	}
	d.key("V")
	d.pump("revealed", func() bool { return d.m.detail.reveal && strings.Contains(d.screen(), token) })
	d.m.status.msg = ""
	d.key("y")
	d.pump("copied again", func() bool { return strings.HasPrefix(d.m.status.msg, "copied") })
	if got := clip.last(); !strings.Contains(got, token) {
		t.Fatalf("after V, y copied %q, want the text as stored", got)
	}
}
