package cli

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// terminalSafe reports the first thing in s that a terminal would act on or
// that would reorder or hide text: an escape or control character, a C1
// control, a bidi override or isolate, invalid UTF-8. The CLI's own
// highlight (reverse video around snippet hits) is allowed.
func terminalSafe(s string) (bad string, ok bool) {
	s = strings.NewReplacer("\x1b[1;7m", "", "\x1b[0m", "").Replace(s)
	for i, r := range s {
		switch {
		case r == utf8.RuneError && !strings.HasPrefix(s[i:], "\ufffd"):
			return "invalid UTF-8", false
		case (r < 0x20 && r != '\n' && r != '\t') || (r >= 0x7f && r <= 0x9f):
			return "control character " + strings.TrimPrefix(strings.TrimSuffix(jsonQuote(string(r)), `"`), `"`), false
		case (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069):
			return "bidi control", false
		}
	}
	return "", true
}

func jsonQuote(s string) string { b, _ := json.Marshal(s); return string(b) }

// Every command that prints stored text for a person prints it sanitised,
// on a terminal and in a pipe: the hostile session has an escape sequence,
// OSC 52, colours, a bidi override and C1 controls in its id, source,
// model, title, content, tool name and tool calls.
func TestHostileSessionIsSanitised(t *testing.T) {
	isolate(t)
	db, _ := contractDB(t)
	for _, args := range [][]string{
		{"show", idHostile},
		{"show", displayID(idHostile)},
		{"recent"},
		{"messages", "zanzibar"},
		{"messages", "--role", "tool", "zanzibar"},
		{"search", "--no-summary", "zanzibar"},
		{"search", "zanzibar"}, // offline summaries of the hostile text
		{"search"},             // browse mode
		{"stats"},
		{"resume", idHostile, "--print"},
		{"show", "nosuch" + hostile}, // an error quoting what was typed
	} {
		for _, terminal := range []bool{true, false} {
			_, out, errs := runCLI(t, terminal, append([]string{"--db", db}, args...)...)
			for stream, s := range map[string]string{"stdout": out, "stderr": errs} {
				if bad, ok := terminalSafe(s); !ok {
					t.Errorf("recall %s (terminal %v): %s has a %s:\n%q", strings.Join(args, " "), terminal, stream, bad, s)
				}
			}
			if args[0] == "show" && len(args) == 2 && !strings.HasPrefix(args[1], "nosuch") && !strings.Contains(out, "zanzibar output") {
				t.Errorf("show %s: %q", args[1], out)
			}
		}
	}
	// export to a terminal is sanitised; to a pipe it is the stored bytes.
	_, tty, _ := runCLI(t, true, "--db", db, "export", idHostile)
	if bad, ok := terminalSafe(tty); !ok {
		t.Errorf("export to a terminal has a %s", bad)
	}
	if _, piped, _ := runCLI(t, false, "--db", db, "export", idHostile); !strings.Contains(piped, "zanzibar output "+hostile) {
		t.Errorf("export to a pipe lost the exact bytes:\n%q", piped)
	}
	// --json keeps the exact bytes, in JSON's escapes.
	_, out, _ := runCLI(t, true, "--db", db, "show", idHostile, "--json")
	got := decodeJSON[showJSON](t, out)
	if got.ID != idHostile || got.Source != "cli"+hostile || got.Model != "model"+hostile || got.Messages[2].ToolName != "bash"+hostile ||
		got.Messages[0].Content != "hostile zanzibar "+hostile {
		t.Errorf("show --json changed the stored text: %+v", got.sessionJSON)
	}
}

// A session id that is not valid UTF-8 (or holds control characters) is
// printed in an escaped, quoted form that show, export and resume accept
// back, whether the shell removed the quotes or not.
func TestUntypeableIDsStayAddressable(t *testing.T) {
	isolate(t)
	db, _ := contractDB(t)
	shown := displayID(idBinary)
	if shown != `'bin\xff\xfe-0006'` {
		t.Fatalf("displayID = %s", shown)
	}
	_, out, _ := runCLI(t, false, "--db", db, "recent", "--json")
	var rows []recentJSON
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatal(err)
	}
	short := ""
	for _, r := range rows {
		if r.IDEscaped == shown {
			short = r.ShortID // escaped, as the whole id is
		}
	}
	if short == "" {
		t.Errorf("recent --json has no session_id_escaped %s", shown)
	}
	if _, out, _ := runCLI(t, false, "--db", db, "recent"); short == "" || !strings.Contains(out, short) {
		t.Errorf("recent does not show %s (short for %s):\n%s", short, shown, out)
	}
	for _, typed := range []string{shown, strings.Trim(shown, "'"), short, strings.Trim(short, "'"), displayID(idHostile), strings.Trim(displayID(idHostile), "'")} {
		for _, args := range [][]string{{"show", typed}, {"export", typed}, {"resume", typed, "--print"}} {
			if code, _, errs := runCLI(t, false, append([]string{"--db", db}, args...)...); code != 0 {
				t.Errorf("recall %s: exit %d: %s", strings.Join(args, " "), code, errs)
			}
		}
	}
	for id, want := range map[string]string{
		"plain-id_1.2:x": "plain-id_1.2:x",
		"with space":     "'with space'",
		"it's":           `'it\x27s'`,
		"tab\there":      `'tab\x09here'`,
		"rtl\u202eid":    `'rtl\u202eid'`,
		"c1\u009bid":     `'c1\u009bid'`,
		"中文-id":          "中文-id",
		`back\slash`:     `'back\\slash'`,
	} {
		if got := displayID(id); got != want {
			t.Errorf("displayID(%q) = %s, want %s", id, got, want)
		}
		if un, ok := unescapeID(want); want != id && (!ok || un != id) {
			t.Errorf("unescapeID(%s) = %q %v, want %q", want, un, ok, id)
		}
	}
}
