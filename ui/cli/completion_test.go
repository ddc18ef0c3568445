package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// completeWords runs `recall __complete -- words...` and returns the
// candidate words (descriptions dropped).
func completeWords(t *testing.T, words ...string) []string {
	t.Helper()
	var out, errb bytes.Buffer
	if code := Run(context.Background(), append([]string{completeCommand, "--"}, words...), strings.NewReader(""), &out, &errb, false); code != 0 {
		t.Fatalf("__complete %q: exit %d %s", words, code, errb.String())
	}
	var got []string
	for _, l := range strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n") {
		if l != "" {
			got = append(got, strings.SplitN(l, "\t", 2)[0])
		}
	}
	return got
}

func TestCompletions(t *testing.T) {
	isolate(t)
	db, _ := contractDB(t)
	t.Setenv("RECALL_DB", db)
	for _, tc := range []struct {
		words      []string
		want, not  []string
		exactly    []string
		wantNoWord bool
	}{
		{words: []string{""}, want: []string{"search", "show", "export", "resume", "completion", "version", "help"}, not: []string{completeCommand}},
		{words: []string{"sh"}, exactly: []string{"show"}},
		{words: []string{"--db", db, "st"}, exactly: []string{"stats"}},
		{words: []string{"-"}, want: []string{"--query", "--version", "--db", "--help"}},
		{words: []string{"show", "--"}, exactly: []string{"--json", "--show-secrets", "--db", "--help"}},
		{words: []string{"export", "-"}, want: []string{"--format", "-o"}},
		{words: []string{"export", "x", "--format", ""}, exactly: []string{"md", "json", "html"}},
		{words: []string{"messages", "--role", "a"}, exactly: []string{"assistant"}},
		{words: []string{"show", ""}, want: []string{idPlain, idParent, idSubagent, displayID(idBinary), displayID(idHostile)}},
		{words: []string{"show", "pa"}, exactly: []string{idSubagent, idParent}},
		{words: []string{"resume", "--print", "plain"}, exactly: []string{idPlain}},
		{words: []string{"--db", db, "export", "codex-"}, exactly: []string{idCodexGone}},
		{words: []string{"show", idPlain, ""}, wantNoWord: true}, // one id only
		{words: []string{"import", ""}, want: []string{"all", "claude", "claude-code", "codex", "gemini", "gemini-cli", "hermes", "jsonl"}},
		{words: []string{"import", "codeb"}, exactly: []string{"codebuddy"}},
		{words: []string{"watch", "h"}, exactly: []string{"hermes"}},
		{words: []string{"completion", ""}, exactly: []string{"bash", "zsh", "fish"}},
		{words: []string{"help", "ex"}, exactly: []string{"export"}},
		{words: []string{"nosuch", ""}, wantNoWord: true},
	} {
		got := completeWords(t, tc.words...)
		for _, w := range tc.want {
			if !slices.Contains(got, w) {
				t.Errorf("%q: %q lacks %q", tc.words, got, w)
			}
		}
		for _, w := range tc.not {
			if slices.Contains(got, w) {
				t.Errorf("%q: %q offers %q", tc.words, got, w)
			}
		}
		if tc.exactly != nil && !slices.Equal(got, tc.exactly) {
			t.Errorf("%q: %q, want %q", tc.words, got, tc.exactly)
		}
		if tc.wantNoWord && len(got) != 0 {
			t.Errorf("%q: %q, want nothing", tc.words, got)
		}
	}
	for _, words := range [][]string{{"--db", ""}, {"export", "x", "-o", ""}, {"import", "jsonl", ""}} {
		if got := completeWords(t, words...); !slices.Equal(got, []string{filesDirective}) {
			t.Errorf("%q: %q, want file names", words, got)
		}
	}
	// Completing never creates a database.
	missing := filepath.Join(t.TempDir(), "none.db")
	if got := completeWords(t, "--db", missing, "show", ""); len(got) != 0 {
		t.Errorf("ids from a missing database: %q", got)
	}
	if _, err := os.Stat(missing); !os.IsNotExist(err) {
		t.Errorf("completion created %s", missing)
	}
}
