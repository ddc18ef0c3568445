package recall

import (
	"strings"
	"testing"

	"github.com/recall-dev/recall/recall/secrets"
	"github.com/recall-dev/recall/recall/secrets/secretstest"
	"github.com/recall-dev/recall/store"
)

// section returns the items of one section of an extractive summary.
func section(summary, title string) []string {
	_, rest, ok := strings.Cut(summary, "\n"+title+":\n")
	if !ok {
		return nil
	}
	var items []string
	for _, l := range strings.Split(rest, "\n") {
		if !strings.HasPrefix(l, "- ") {
			break
		}
		items = append(items, strings.TrimPrefix(l, "- "))
	}
	return items
}

// The offline summary of a real-looking docker session: positions, not ids;
// paths that are files; errors that are errors; excerpts that render.
func TestExtractiveSummaryReadsRight(t *testing.T) {
	msgs := []store.Message{
		{ID: 441, Role: "user", Content: "I start postgres with `docker run -d --name db postgres:16` and the api can't reach it, the connection failed."},
		{ID: 442, Role: "assistant", Content: "`127.0.0.11` is Docker's embedded DNS server, which only exists on **user-defined networks**. Containers on the default `bridge` network don't get name resolution for each other, so `db` can't be resolved from the api container at all, whatever you try."},
		{ID: 443, Role: "tool", ToolName: "Bash", Content: "/db bridge\n/heuristic_kepler bridge\nError response from daemon: network ledgerly-net not found\nexit status 1"},
		{ID: 444, Role: "assistant", Content: "## 1. Create a network\n\nEdit /home/dev/src/ledgerly/scripts/dev-up.sh and ./README.md, then run `docker network create ledgerly-net`.\n\n```\nError: dial tcp: lookup db on 127.0.0.11:53: no such host\n```"},
	}
	// Four messages of a longer session: positions count the whole session.
	session := append([]store.Message{{ID: 1}, {ID: 2}}, msgs...)
	got := extractiveSummary(msgs, []string{"network"}, Positions(session), secrets.Messages)

	for _, item := range section(got, "Matched") {
		if strings.Count(item, "`")%2 != 0 || strings.Count(item, "**")%2 != 0 {
			t.Errorf("excerpt leaves markdown open: %q", item)
		}
		if strings.Contains(item, "## ") {
			t.Errorf("excerpt keeps a heading's hashes: %q", item)
		}
		if strings.Contains(item, "#442") || strings.Contains(item, "#444") {
			t.Errorf("excerpt is named by database id: %q", item)
		}
	}
	if !strings.Contains(got, "- #4 of 6 (assistant): ") || !strings.Contains(got, "Conclusion (assistant, #6 of 6):") {
		t.Errorf("positions are not the session's:\n%s", got)
	}
	paths := strings.Join(section(got, "Files and paths"), "\n")
	for _, want := range []string{"/home/dev/src/ledgerly/scripts/dev-up.sh", "./README.md"} {
		if !strings.Contains(paths, want) {
			t.Errorf("paths lack %s:\n%s", want, paths)
		}
	}
	for _, bad := range []string{"`/db`", "/heuristic_kepler"} {
		if strings.Contains(paths, bad) {
			t.Errorf("paths list %s, which is no file:\n%s", bad, paths)
		}
	}
	errs := section(got, "Errors")
	joined := strings.Join(errs, "\n")
	for _, want := range []string{"Error response from daemon: network ledgerly-net not found", "exit status 1", "no such host"} {
		if !strings.Contains(joined, want) {
			t.Errorf("errors lack %q:\n%s", want, joined)
		}
	}
	for _, prose := range []string{"can't reach it", "embedded DNS"} {
		if strings.Contains(joined, prose) {
			t.Errorf("errors list prose %q:\n%s", prose, joined)
		}
	}
}

func TestBalanceMarkdown(t *testing.T) {
	for in, want := range map[string]string{
		"so `db` can't be reso...": "so `db` can't be reso...",
		"so `db can't be reso...":  "so `db can't be reso...`",
		"a **bold cut...":          "a **bold cut...**",
		"```\ncode":                "```\ncode\n```",
	} {
		if got := balanceMarkdown(in); got != want {
			t.Errorf("balanceMarkdown(%q) = %q, want %q", in, got, want)
		}
	}
}

// A quoted line is cut from redacted text: a JWT the cut would have left
// half of (its signature past the line's 200 characters, its header
// before the window) shows no part of itself, nor does the conclusion's.
func TestExtractiveSummaryRedactsBeforeCutting(t *testing.T) {
	jwt := secretstest.Forms[8].Secret // eyJ….eyJ….<signature>
	line := strings.Repeat("padding words before the token ", 4) + "Authorization: Bearer " + jwt + " then the deploy network step"
	msgs := []store.Message{
		{ID: 1, Role: "user", Content: "why does the network call fail?"},
		{ID: 2, Role: "tool", ToolName: "Bash", Content: line},
		{ID: 3, Role: "assistant", Content: strings.Repeat("The network call failed because ", 15) + "the header was " + jwt},
	}
	got := extractiveSummary(msgs, []string{"network"}, Positions(msgs), secrets.Messages)
	for _, piece := range []string{jwt, jwt[len(jwt)-12:], jwt[40:60]} {
		if strings.Contains(got, piece) {
			t.Errorf("the summary shows %q:\n%s", piece, got)
		}
	}
	if !strings.Contains(got, "[REDACTED:") {
		t.Errorf("no redaction mark:\n%s", got)
	}
	// As stored, for a person who asked: the cut may then show the token.
	if raw := extractiveSummary(msgs, []string{"network"}, Positions(msgs), func(m []store.Message) []store.Message { return m }); !strings.Contains(raw, jwt[:20]) {
		t.Errorf("the summary as stored lost the token:\n%s", raw)
	}
}
