package cli

import (
	"bytes"
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/recall-dev/recall/assets"
	"github.com/recall-dev/recall/recall/llm/llmtest"
)

// searchSchema resolves assets/schema/session_search.schema.json; with
// projected, result objects need none of their keys (what --fields prints).
func searchSchema(t *testing.T, projected bool) *jsonschema.Resolved {
	t.Helper()
	var s jsonschema.Schema
	if err := json.Unmarshal(assets.SessionSearchSchema(), &s); err != nil {
		t.Fatalf("schema is not a JSON Schema: %v", err)
	}
	if projected {
		s.Defs["result"].Required = nil
		s.Defs["browseItem"].Required = nil
	}
	rs, err := s.Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}
	return rs
}

// TestSearchJSONSchema: every answer `recall search --json` prints, real
// output on a real database, matches the documented schema.
func TestSearchJSONSchema(t *testing.T) {
	db := searchDB(t)
	noModel(t)
	// The check can fail: answers with a key missing or mistyped do not pass.
	for _, bad := range []string{`{"success":true,"mode":"discover","query":"x","results":[],"count":0,"sessions_searched":0}`,
		`{"success":true,"mode":"browse","results":[{"session_id":1}],"count":1,"message":""}`, `{"success":"no","error":"x"}`} {
		var v any
		json.Unmarshal([]byte(bad), &v)
		if searchSchema(t, false).Validate(v) == nil {
			t.Errorf("schema accepts %s", bad)
		}
	}
	for _, tc := range []struct {
		name      string
		args      []string
		code      int
		projected bool
	}{
		{"discover", []string{"--no-summary", "overlay network"}, 0, false},
		{"discover with summaries", []string{"overlay network"}, 0, false},
		{"discover in a budget", []string{"--max-chars", "2000", "overlay network"}, 0, false},
		{"no match", []string{"xylophone"}, 0, false},
		{"browse", nil, 0, false},
		{"browse in a budget", []string{"--max-chars", "2000"}, 0, false},
		{"fields", []string{"--fields", "session_id,snippet,hits", "overlay network"}, 0, true},
		{"missing database", []string{"--db", filepath.Join(t.TempDir(), "none.db"), "x"}, 1, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := runCLI(t, false, append([]string{"search", "--db", db, "--json"}, tc.args...)...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d: %s", code, tc.code, errs)
			}
			var v any
			if err := json.Unmarshal([]byte(out), &v); err != nil {
				t.Fatalf("not JSON: %v\n%s", err, out)
			}
			if err := searchSchema(t, tc.projected).Validate(v); err != nil {
				t.Errorf("output does not match the schema: %v\n%s", err, out)
			}
		})
	}
}

// TestSearchJSONBudget: --max-chars bounds what is printed (indentation
// included) and says what it trimmed; without it the output is unbounded.
func TestSearchJSONBudget(t *testing.T) {
	db := searchDB(t)
	noModel(t)
	_, full, _ := runCLI(t, false, "search", "--db", db, "--json", "overlay network")
	if strings.Contains(full, `"budget"`) {
		t.Error("budget object without --max-chars")
	}
	code, out, errs := runCLI(t, false, "search", "--db", db, "--json", "--max-chars", "2000", "overlay network")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var env struct {
		Budget struct {
			MaxChars  int    `json:"max_chars"`
			Truncated bool   `json:"truncated"`
			Hint      string `json:"hint"`
		} `json:"budget"`
	}
	json.Unmarshal([]byte(out), &env)
	if n := utf8.RuneCountInString(out); n > 2000 || utf8.RuneCountInString(full) <= 2000 {
		t.Fatalf("printed %d characters with --max-chars 2000 (%d without)", n, utf8.RuneCountInString(full))
	}
	if env.Budget.MaxChars != 2000 || !env.Budget.Truncated || !strings.Contains(env.Budget.Hint, "around_message_id") {
		t.Errorf("budget %+v", env.Budget)
	}
}

// TestSearchFields: --fields keeps the named keys of each result, in output
// order, leaves the envelope whole, and skips the work nobody asked for (no
// model request when no summary field is wanted).
func TestSearchFields(t *testing.T) {
	db := searchDB(t)
	noModel(t)
	srv := &llmtest.FakeServer{}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	t.Setenv("RECALL_LLM_BASE_URL", ts.URL+"/v1")
	t.Setenv("RECALL_LLM_MODEL", "fake")
	code, out, errs := runCLI(t, false, "search", "--db", db, "--json", "--fields", "snippet,session_id", "overlay network")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var env map[string]json.RawMessage
	if err := json.Unmarshal([]byte(out), &env); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"success", "mode", "query", "results", "count", "sessions_searched", "index"} {
		if _, ok := env[k]; !ok {
			t.Errorf("envelope lost %q", k)
		}
	}
	var items []json.RawMessage
	json.Unmarshal(env["results"], &items)
	if len(items) != 2 {
		t.Fatalf("%d results", len(items))
	}
	for _, it := range items {
		dec := json.NewDecoder(bytes.NewReader(it))
		dec.Token()
		var keys []string
		for dec.More() {
			k, _ := dec.Token()
			keys = append(keys, k.(string))
			var skip json.RawMessage
			dec.Decode(&skip)
		}
		if !slices.Equal(keys, []string{"session_id", "snippet"}) {
			t.Errorf("result keys %v, want [session_id snippet] (output order)", keys)
		}
	}
	if srv.Requests() != 0 {
		t.Errorf("%d model requests for a projection without summaries", srv.Requests())
	}
	_, bout, _ := runCLI(t, false, "search", "--db", db, "--json", "--fields", "session_id,preview")
	if !strings.Contains(bout, `"preview"`) || strings.Contains(bout, `"started_at"`) {
		t.Errorf("browse fields: %s", bout)
	}
}

// TestSearchJSONContract: the exit codes scripts rely on.
func TestSearchJSONContract(t *testing.T) {
	db := searchDB(t)
	noModel(t)
	if code, out, _ := runCLI(t, false, "search", "--db", db, "--json", "xylophone"); code != 0 || !strings.Contains(out, `"count": 0`) {
		t.Errorf("no match: exit %d\n%s", code, out)
	}
	missing := filepath.Join(t.TempDir(), "none.db")
	code, out, errs := runCLI(t, false, "search", "--db", missing, "--json", "x")
	var fail struct {
		Success *bool  `json:"success"`
		Error   string `json:"error"`
	}
	if json.Unmarshal([]byte(out), &fail); code != 1 || fail.Success == nil || *fail.Success || !strings.Contains(fail.Error, "no such database") || errs == "" {
		t.Errorf("runtime error: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	for _, args := range [][]string{
		{"--json", "--max-chars", "10", "x"},
		{"--json", "--max-chars", "-1", "x"},
		{"--max-chars", "5000", "x"},
		{"--fields", "snippet", "x"},
		{"--json", "--fields", "preview", "x"},
		{"--json", "--fields", "snippet"},
		{"--json", "--sessions", "11", "x"},
	} {
		code, out, errs := runCLI(t, false, append([]string{"search", "--db", db}, args...)...)
		if code != 2 || errs == "" || out != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want a usage error (2)", args, code, out, errs)
		}
	}
	code, out, _ = runCLI(t, false, "search", "--schema")
	if code != 0 || out != string(assets.SessionSearchSchema()) || !json.Valid([]byte(out)) {
		t.Errorf("--schema: exit %d, %d bytes", code, len(out))
	}
}

// TestMCPPrintConfig: the snippet names this very binary, absolutely, and
// the database when one was chosen; where it goes is said on stderr.
func TestMCPPrintConfig(t *testing.T) {
	noModel(t)
	bin, _ := os.Executable()
	if real, err := filepath.EvalSymlinks(bin); err == nil {
		bin = real
	}
	dir := t.TempDir()
	t.Chdir(dir)
	code, out, errs := runCLI(t, false, "mcp", "--print-config", "codex", "--db", "rel.db")
	want := "[mcp_servers.recall]\ncommand = " + jsonString(bin) + "\nargs = [\"mcp\", \"--db\", " + jsonString(filepath.Join(dir, "rel.db")) + "]\n"
	if code != 0 || out != want || !strings.Contains(errs, "~/.codex/config.toml") {
		t.Errorf("exit %d\nstdout %q\nwant   %q\nstderr %q", code, out, want, errs)
	}
	t.Setenv("RECALL_DB", "")
	code, out, errs = runCLI(t, false, "mcp", "--print-config", "claude")
	if code != 0 || !strings.Contains(out, jsonString(bin)) || strings.Contains(out, "--db") || !strings.Contains(errs, "claude mcp add --scope user recall -- ") {
		t.Errorf("claude: exit %d\n%s\n%s", code, out, errs)
	}
	if code, _, errs := runCLI(t, false, "mcp", "--print-config", "cursor"); code != 2 || !strings.Contains(errs, "claude, codex, gemini, hermes") {
		t.Errorf("unknown agent: exit %d %q", code, errs)
	}
	for _, args := range [][]string{{"--max-chars", "5"}, {"--summary-timeout", "0s"}, {"--bogus"}, {"serve"}} {
		if code, out, errs := runCLI(t, false, append([]string{"mcp"}, args...)...); code != 2 || out != "" || errs == "" {
			t.Errorf("mcp %v: exit %d, stdout %q, stderr %q; want a usage error", args, code, out, errs)
		}
	}
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
