package ui

import (
	"context"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/recall-dev/recall/recall"
	"github.com/recall-dev/recall/recall/llm"
	"github.com/recall-dev/recall/recall/llm/llmtest"
	"github.com/recall-dev/recall/recall/secrets"
	"github.com/recall-dev/recall/recall/secrets/secretstest"
	"github.com/recall-dev/recall/store"
)

// flat is s without whitespace, box drawing and ellipses: a secret the
// layout wrapped over lines (or padded) is whole again in it.
func flat(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) || r >= 0x2500 && r <= 0x257f || r == '…' {
			return -1
		}
		return r
	}, ansi.Strip(s))
}

// leaksTUI is what of f a pane shows: its text as drawn, and flattened.
func leaksTUI(f secretstest.Form, pane string) string {
	if l := f.Leaks(pane); l != "" {
		return l
	}
	g := f
	g.Secret, g.Tell = flat(f.Secret), flat(f.Tell)
	return g.Leaks(flat(pane))
}

// TestSecretsMatrixTUI: every form of secret of issue 30 in every
// placement is gone from the TUI as its model draws it (View: the list's
// titles and snippets, the detail pane, with tool calls expanded and the
// reasoning shown), from what y copies, o pages and e exports, from the
// summary panel, and from the summary prompt a model receives (a real
// local endpoint recording request bodies).
func TestSecretsMatrixTUI(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "state.db"), store.Options{Create: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	cells, err := secretstest.Load(ctx, st, secretstest.Forms, secretstest.Placements)
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("PAGER", "cat")
	fake := &llmtest.FakeServer{Reply: func(string) []string { return []string{"A deploy ", "was set up."} }}
	srv := httptest.NewServer(fake)
	t.Cleanup(srv.Close)
	cfg := &llm.Config{BaseURL: srv.URL + "/v1", Model: "fake", MaxRetries: -1}
	eng := recall.New(st, recall.Options{Sessions: recall.MaxSessions, LLM: cfg, Concurrency: 1})
	clip := &fakeClipboard{}
	d := newDriverWith(t, NewEngineBackend(eng, secrets.AsStored(st)), 200, 60, Options{Clipboard: clip})
	d.pump("browse", func() bool { return len(d.m.list.items) > 0 })

	checks, paths := 0, map[string]bool{}
	check := func(path string, c secretstest.Cell, pane string) {
		t.Helper()
		checks++
		paths[path] = true
		if leak := leaksTUI(c.Form, pane); leak != "" {
			t.Errorf("%s, %s: shows %q", path, c.Name(), leak)
		}
	}
	// The browse list names every session: titles and first prompts.
	for _, c := range cells {
		check("list (browse)", c, d.m.list.View())
	}
	dir := t.TempDir()
	for _, c := range cells {
		// A search: the list's rows (title, snippet), the detail pane.
		d.m.input.SetValue("")
		d.typ(c.Word)
		d.pump("search "+c.Word, func() bool {
			it, ok := d.m.list.Selected()
			return d.m.finalSeq == d.m.seq && d.m.lastQuery == c.Word && ok && it.SessionID == c.SessionID
		})
		d.pump("transcript", func() bool { return d.m.detail.session.ID == c.SessionID && !d.m.detail.loading })
		check("screen (search)", c, d.screen())
		check("list (search)", c, d.m.list.View())
		check("detail", c, strings.Join(d.m.detail.view.lines, "\n"))
		for _, toggle := range []struct {
			path string
			cmd  func() tea.Cmd
		}{{"detail, tool calls expanded (t)", d.m.toggleTools}, {"detail, reasoning shown (T)", d.m.toggleThinking}} {
			d.run(toggle.cmd())
			d.pump("re-render", func() bool { return d.m.detail.cancel == nil })
			check(toggle.path, c, strings.Join(d.m.detail.view.lines, "\n"))
			check("screen ("+toggle.path+")", c, d.screen())
		}
		// y copies the message at the reading position: each in turn.
		dt := &d.m.detail
		for k := range dt.doc.msgIDs {
			dt.targets, dt.targetMsg, dt.hit = []int{dt.doc.msgStart[k]}, []int{k}, 0
			dt.view.offset = min(dt.doc.msgStart[k], max(0, len(dt.view.lines)-dt.view.height))
			d.m.status.msg = ""
			d.run(d.m.yank())
			d.pump("copied", func() bool { return d.m.status.msg != "" })
			check("y (copy)", c, clip.last())
		}
		// o: the page the pager is handed.
		msg := d.m.pager()()
		req, ok := msg.(execRequestMsg)
		if !ok {
			t.Fatalf("pager: %#v", msg)
		}
		page, err := os.ReadFile(req.cmd.Args[len(req.cmd.Args)-1])
		req.cleanup()
		if err != nil {
			t.Fatal(err)
		}
		check("o (pager)", c, string(page))
		// e: the exported file.
		path := filepath.Join(dir, c.SessionID+".md")
		if res, ok := d.m.exportTo(c.SessionID, path, true)().(exportResultMsg); !ok || res.err != nil {
			t.Fatalf("export: %#v", res)
		}
		exported, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		check("e (export)", c, string(exported))
		// The summary panel, and what the model was sent for it.
		before := len(fake.Bodies())
		d.run(d.m.summarizeSelected())
		d.pump("summary", func() bool { return d.m.summary.done })
		check("summary panel", c, strings.Join(d.m.summary.view.lines, "\n"))
		bodies := fake.Bodies()[before:]
		if len(bodies) == 0 {
			t.Fatalf("%s: no summary request reached the model", c.Name())
		}
		check("summary prompt", c, strings.Join(bodies, "\n"))
		d.m.stopSummary()
		d.m.summary.open = false
		d.m.detail.expanded, d.m.detail.thinking = false, false
	}
	t.Logf("TUI matrix: %d forms × %d placements × %d paths: %d checks", len(secretstest.Forms), len(secretstest.Placements), len(paths), checks)
}
