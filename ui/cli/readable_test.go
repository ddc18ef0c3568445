package cli

import (
	"context"
	"github.com/recall-dev/recall/store"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/recall-dev/recall/ui/termtext"
)

// Text output is for people (issue 22): messages are named by their place
// in the session ("#2 of 2"), never by database id (ids are in --json);
// counts agree in number ("1 hit", "2 sessions"); every line fits the
// terminal's width in display cells, so nothing wraps mid-word; one date
// format (the TUI's). Before: "#4", "2 session(s)", "1 hit(s)", lines cut
// at 100-160 characters whatever the width, "January 02, 2006 at 03:04 PM".
func TestTextOutputForPeople(t *testing.T) {
	db := searchDB(t)
	noModel(t)
	dbID := regexp.MustCompile(`#\d+[: ]`)
	for _, cols := range []int{60, 120} {
		t.Setenv("COLUMNS", strconv.Itoa(cols))
		code, out, errs := runCLI(t, false, "search", "--db", db, "--no-summary", "overlay network")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errs)
		}
		for _, want := range []string{"2 sessions for", "#2 of 2", "1 hit", "2026-01-02 "} {
			if !strings.Contains(out, want) {
				t.Errorf("%d columns: search lacks %q:\n%s", cols, want, out)
			}
		}
		for _, bad := range []string{"(s)", " at 0", "hit(s)"} {
			if strings.Contains(out, bad) {
				t.Errorf("%d columns: search says %q:\n%s", cols, bad, out)
			}
		}
		for _, l := range strings.Split(out, "\n") {
			if w := termtext.Width(l); w > cols {
				t.Errorf("%d columns: a line of %d cells: %q", cols, w, l)
			}
			if m := dbID.FindString(strings.ReplaceAll(l, " of ", "")); m != "" && !strings.Contains(l, " of ") {
				t.Errorf("%d columns: a database id in %q", cols, l)
			}
		}
		_, out, _ = runCLI(t, false, "--db", db, "show", "root1")
		if !strings.Contains(out, "#1 of 2 [USER] 2026-01-02 15:04\n") || !strings.Contains(out, "2 messages") {
			t.Errorf("show: want positions and the TUI's date format:\n%s", out)
		}
		_, out, _ = runCLI(t, false, "--db", db, "recent")
		for _, l := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
			if w := termtext.Width(l); w > cols {
				t.Errorf("%d columns: recent row of %d cells: %q", cols, w, l)
			}
		}
	}
}

// `recall search --session ID --around N` takes the shapes the --json hint
// and MCP's session_search take (session_id + around_message_id), and #N
// for the Nth message as the text output names it. Before, both flags were
// unknown.
func TestSearchSessionAround(t *testing.T) {
	db := searchDB(t)
	noModel(t)
	code, out, errs := runCLI(t, false, "search", "--db", db, "--json", "--session", "child1", "--around", "#2")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	env := decodeJSON[map[string]any](t, out)
	anchor, _ := env["around_message_id"].(float64)
	if env["session_id"] != "child1" || anchor == 0 {
		t.Fatalf("--json --session --around: %s", out)
	}
	code, out, errs = runCLI(t, false, "search", "--db", db, "--json", "--session", "child1", "--around", strconv.Itoa(int(anchor)))
	if code != 0 || !strings.Contains(out, "overlay network") {
		t.Fatalf("--around by id: exit %d %s %s", code, out, errs)
	}
	code, out, errs = runCLI(t, false, "search", "--db", db, "--session", "child1", "--around", "#2")
	if code != 0 || !strings.Contains(out, "> #2 of 2 ") || !strings.Contains(out, "  #1 of 2 ") {
		t.Fatalf("text: exit %d:\n%s%s", code, out, errs)
	}
	if code, _, errs = runCLI(t, false, "search", "--db", db, "--around", "3"); code != 2 || !strings.Contains(errs, "--session") {
		t.Errorf("--around alone: exit %d %s", code, errs)
	}
}

// recall recent --here lists only the sessions run in this repository (the
// nearest directory with .git up from the working directory).
func TestRecentHere(t *testing.T) {
	repo := t.TempDir()
	if err := os.MkdirAll(filepath.Join(repo, ".git"), 0o700); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(repo, "web")
	if err := os.MkdirAll(sub, 0o700); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(t.TempDir(), "state.db")
	st, err := store.Open(context.Background(), db, store.Options{Create: true})
	if err != nil {
		t.Fatal(err)
	}
	err = st.Write(context.Background(), func(tx *store.Tx) error {
		for _, s := range []store.Session{{ID: "in-repo", Source: "cli", Title: "in the repo", Cwd: sub},
			{ID: "elsewhere", Source: "cli", Title: "somewhere else", Cwd: "/srv"}} {
			if err := tx.UpsertSession(s); err != nil {
				return err
			}
		}
		return nil
	})
	st.Close()
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(sub)
	_, out, errs := runCLI(t, false, "--db", db, "recent", "--here")
	if !strings.Contains(out, "in the repo") || strings.Contains(out, "somewhere else") {
		t.Errorf("recent --here:\n%s%s", out, errs)
	}
	if _, out, _ = runCLI(t, false, "--db", db, "recent"); !strings.Contains(out, "somewhere else") {
		t.Errorf("recent without --here lost a session:\n%s", out)
	}
}
