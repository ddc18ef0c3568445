package cli

import (
	"context"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/recall-dev/recall/recall/llm/llmtest"
	"github.com/recall-dev/recall/recall/secrets/secretstest"
	"github.com/recall-dev/recall/store"
)

// matrixDB writes the matrix's sessions (every form of secret in every
// placement) into a new database.
func matrixDB(t *testing.T) (string, []secretstest.Cell) {
	t.Helper()
	db := filepath.Join(t.TempDir(), "state.db")
	st, err := store.Open(context.Background(), db, store.Options{Create: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	cells, err := secretstest.Load(context.Background(), st, secretstest.Forms, secretstest.Placements)
	if err != nil {
		t.Fatal(err)
	}
	return db, cells
}

// leakCheck counts the matrix's checks and fails on a secret in an output.
type leakCheck struct {
	t      *testing.T
	checks int
	paths  map[string]bool
}

func (lc *leakCheck) check(path string, c secretstest.Cell, out string) {
	lc.t.Helper()
	lc.checks++
	lc.paths[path] = true
	if leak := c.Form.Leaks(out); leak != "" {
		lc.t.Errorf("%s, %s: shows %q", path, c.Name(), leak)
	}
}

// TestSecretsMatrixCLI: every form of secret of issue 30 in every placement
// (user, assistant, tool output, tool-call arguments, reasoning, title,
// JSON-escaped) is gone from every command's output, text and JSON, from
// the offline summaries, and from every request body sent to a model (a
// real local endpoint that records them), --show-secrets or not.
func TestSecretsMatrixCLI(t *testing.T) {
	isolateAgents(t)
	db, cells := matrixDB(t)
	if !fullMatrix {
		cells = secretstest.Sample(cells, len(secretstest.Forms), 3)
	}
	fake := &llmtest.FakeServer{Reply: func(string) []string { return []string{"The session ", "set up a deploy."} }}
	srv := httptest.NewServer(fake)
	defer srv.Close()
	lc := &leakCheck{t: t, paths: map[string]bool{}}
	run := func(args ...string) string {
		t.Helper()
		code, out, errOut := runCLI(t, false, append([]string{"--db", db}, args...)...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errOut)
		}
		return out + errOut
	}
	roles := "--role=user,assistant,tool,system"
	for _, c := range cells {
		for _, tc := range []struct {
			path string
			args []string
		}{
			{"show", []string{"show", c.SessionID}},
			{"show --json", []string{"show", "--json", c.SessionID}},
			{"export md", []string{"export", c.SessionID}},
			{"export json", []string{"export", "--format", "json", c.SessionID}},
			{"export html", []string{"export", "--format", "html", c.SessionID}},
			{"messages", []string{"messages", roles, c.Word}},
			{"messages --json", []string{"messages", "--json", roles, c.Word}},
			{"search (evidence, offline summary)", []string{"search", roles, c.Word}},
			{"search --json (evidence, offline summaries)", []string{"search", "--json", roles, c.Word}},
			{"search --session", []string{"search", "--session", c.SessionID}},
			{"search --json --session (read)", []string{"search", "--json", "--session", c.SessionID}},
			{"search --json --session --around (scroll)", []string{"search", "--json", "--session", c.SessionID, "--around", "#2"}},
		} {
			lc.check(tc.path, c, run(tc.args...))
		}
	}
	for _, args := range [][]string{{"recent", "--limit", "500"}, {"recent", "--json", "--limit", "500"}} {
		out := run(args...)
		for _, c := range cells {
			lc.check(strings.Join(args[:len(args)-2], " "), c, out)
		}
	}

	// Model summaries: the text search, its JSON, and --show-secrets, which
	// keeps secrets for the person but never in the prompt.
	t.Setenv("RECALL_LLM_BASE_URL", srv.URL+"/v1")
	t.Setenv("RECALL_LLM_MODEL", "fake")
	for _, c := range cells {
		for _, tc := range []struct {
			path string
			args []string
		}{
			{"summary prompt (search)", []string{"search", roles, c.Word}},
			{"summary prompt (search --json)", []string{"search", "--json", roles, c.Word}},
			{"summary prompt (search --show-secrets)", []string{"search", "--show-secrets", roles, c.Word}},
		} {
			before := len(fake.Bodies())
			out := run(tc.args...)
			bodies := fake.Bodies()[before:]
			if len(bodies) == 0 {
				t.Fatalf("%s, %s: no request reached the model:\n%s", tc.path, c.Name(), out)
			}
			lc.check(tc.path, c, strings.Join(bodies, "\n"))
			if !strings.Contains(tc.path, "show-secrets") {
				lc.check(tc.path+" output", c, out)
			}
		}
	}
	t.Logf("CLI matrix: %d cells (of %d forms × %d placements) × %d paths: %d checks", len(cells), len(secretstest.Forms), len(secretstest.Placements), len(lc.paths), lc.checks)
}
