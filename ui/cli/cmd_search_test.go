package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/recall-dev/recall/recall/llm/llmtest"
	"github.com/recall-dev/recall/store"
)

// searchDB writes a small history: a lineage (root + child), an unrelated
// session and a hidden subagent session.
func searchDB(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "state.db")
	ctx := context.Background()
	st, err := store.Open(ctx, path, store.Options{Create: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	t0 := time.Date(2026, 1, 2, 15, 4, 0, 0, time.Local)
	err = st.Write(ctx, func(tx *store.Tx) error {
		for _, s := range []store.Session{
			{ID: "root1", Source: "cli", Model: "gpt-x", Title: "Docker networking", StartedAt: t0},
			{ID: "child1", Source: "cli", ParentID: "root1", StartedAt: t0.Add(time.Hour)},
			{ID: "other", Source: "telegram", StartedAt: t0.Add(2 * time.Hour)},
			{ID: "sub", Source: "subagent", StartedAt: t0.Add(3 * time.Hour)},
		} {
			if err := tx.UpsertSession(s); err != nil {
				return err
			}
		}
		_, err := tx.InsertMessages([]store.Message{
			{SessionID: "root1", Role: "user", Content: "set up the staging box", Timestamp: t0},
			{SessionID: "root1", Role: "assistant", Content: "done", Timestamp: t0.Add(time.Minute)},
			{SessionID: "child1", Role: "user", Content: "the overlay network keeps failing", Timestamp: t0.Add(time.Hour)},
			{SessionID: "child1", Role: "assistant", Content: "I recreated the overlay network with `docker network create -d overlay web`.", Timestamp: t0.Add(time.Hour + time.Minute)},
			{SessionID: "other", Role: "user", Content: "what is an overlay network anyway", Timestamp: t0.Add(2 * time.Hour)},
			{SessionID: "sub", Role: "user", Content: "overlay network subtask", Timestamp: t0.Add(3 * time.Hour)},
		})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return path
}

// noModel makes sure no model is configured from the developer's environment.
func noModel(t *testing.T) {
	for _, k := range []string{"RECALL_LLM_BASE_URL", "RECALL_LLM_MODEL", "RECALL_LLM_API_KEY", "OPENAI_BASE_URL", "OPENAI_API_KEY"} {
		t.Setenv(k, "")
	}
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
}

func runCLI(t *testing.T, terminal bool, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = Run(context.Background(), args, strings.NewReader(""), &out, &errb, terminal)
	return code, out.String(), errb.String()
}

func TestSearchJSON(t *testing.T) {
	db := searchDB(t)
	tests := map[string]struct {
		args  []string
		model bool
		check func(t *testing.T, env map[string]any)
	}{
		"discover, evidence only": {
			args: []string{"--json", "--no-summary", "overlay network"},
			check: func(t *testing.T, env map[string]any) {
				if env["success"] != true || env["mode"] != "discover" || env["query"] != "overlay network" || env["index"] == "" {
					t.Fatalf("envelope %v", env)
				}
				results := env["results"].([]any)
				if env["count"] != float64(len(results)) || env["sessions_searched"] != float64(len(results)) || len(results) != 2 {
					t.Fatalf("count %v, sessions_searched %v, %d results; want 2 (subagent hidden, lineage once)", env["count"], env["sessions_searched"], len(results))
				}
				for _, r := range results {
					r := r.(map[string]any)
					if _, ok := r["summary"]; ok {
						t.Error("summary despite --no-summary")
					}
					if !strings.Contains(r["snippet"].(string), ">>>") || strings.Contains(r["snippet"].(string), store.HighlightStart) {
						t.Errorf("snippet %q: want >>> markers", r["snippet"])
					}
					anchors := 0
					for _, m := range r["messages"].([]any) {
						if m.(map[string]any)["anchor"] == true {
							anchors++
						}
					}
					if anchors != 1 {
						t.Errorf("%d anchors in %v", anchors, r["messages"])
					}
					for _, k := range []string{"session_id", "when", "source", "model", "title", "matched_role", "match_message_id",
						"bookend_start", "messages", "bookend_end", "messages_before", "messages_after", "hits"} {
						if _, ok := r[k]; !ok {
							t.Errorf("result lacks %q", k)
						}
					}
					switch r["session_id"] {
					case "child1":
						if r["parent_session_id"] != "root1" || r["title"] != "Docker networking" || r["model"] != "gpt-x" ||
							r["when"] != "January 02, 2026 at 03:04 PM" {
							t.Errorf("child hit: %v", r)
						}
					case "other":
						// Untitled: named by its first prompt, as recall recent names it.
						if _, ok := r["parent_session_id"]; ok || r["title"] != "what is an overlay network anyway" || r["model"] != "unknown" {
							t.Errorf("root hit: %v", r)
						}
					default:
						t.Errorf("unexpected session %v", r["session_id"])
					}
				}
			},
		},
		"offline summaries without a model": {
			args: []string{"--json", "overlay network"},
			check: func(t *testing.T, env map[string]any) {
				for _, r := range env["results"].([]any) {
					r := r.(map[string]any)
					if r["summary_kind"] != "extractive" || !strings.HasPrefix(r["summary"].(string), "Offline summary (no model configured)") {
						t.Errorf("summary %v %q", r["summary_kind"], r["summary"])
					}
				}
			},
		},
		"model summaries by default with a model": {
			args: []string{"--json", "--sessions", "1", "overlay network"}, model: true,
			check: func(t *testing.T, env map[string]any) {
				results := env["results"].([]any)
				if len(results) != 1 {
					t.Fatalf("%d results for --sessions 1", len(results))
				}
				r := results[0].(map[string]any)
				if r["summary_kind"] != "model" || r["summary"] != "The overlay network was recreated [#4]." {
					t.Errorf("summary %v %q", r["summary_kind"], r["summary"])
				}
			},
		},
		"excluded lineage": {
			args: []string{"--json", "--no-summary", "--exclude-session", "child1", "overlay network"},
			check: func(t *testing.T, env map[string]any) {
				results := env["results"].([]any)
				if len(results) != 1 || results[0].(map[string]any)["session_id"] != "other" {
					t.Errorf("results %v, want only the other session", results)
				}
			},
		},
		"no match": {
			args: []string{"--json", "xylophone"},
			check: func(t *testing.T, env map[string]any) {
				if env["count"] != float64(0) || env["message"] != "No matching sessions found." || len(env["results"].([]any)) != 0 {
					t.Errorf("envelope %v", env)
				}
			},
		},
		"browse without a query": {
			args: []string{"--json"},
			check: func(t *testing.T, env map[string]any) {
				results := env["results"].([]any)
				if env["mode"] != "browse" || len(results) != 2 {
					t.Fatalf("browse %v", env)
				}
				first := results[0].(map[string]any)
				if first["session_id"] != "other" || first["message_count"] != float64(1) || first["preview"] == "" {
					t.Errorf("newest first: %v", first)
				}
			},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			noModel(t)
			if tc.model {
				srv := &llmtest.FakeServer{Reply: func(string) []string {
					return llmtest.WordDeltas("The overlay network was recreated [#4].")
				}}
				ts := httptest.NewServer(srv)
				defer ts.Close()
				t.Setenv("RECALL_LLM_BASE_URL", ts.URL+"/v1")
				t.Setenv("RECALL_LLM_MODEL", "fake")
			}
			code, out, errs := runCLI(t, false, append([]string{"search", "--db", db}, tc.args...)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			var env map[string]any
			if err := json.Unmarshal([]byte(out), &env); err != nil {
				t.Fatalf("not JSON: %v\n%s", err, out)
			}
			tc.check(t, env)
		})
	}
}

func TestSearchHuman(t *testing.T) {
	db := searchDB(t)
	noModel(t)
	srv := &llmtest.FakeServer{Delay: 5 * time.Millisecond, Reply: func(p string) []string {
		if strings.Contains(p, "anyway") {
			return llmtest.WordDeltas("SECOND summary.")
		}
		return llmtest.WordDeltas("FIRST summary.")
	}}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	t.Setenv("RECALL_LLM_BASE_URL", ts.URL+"/v1")
	t.Setenv("RECALL_LLM_MODEL", "fake")

	code, out, errs := runCLI(t, false, "search", "--db", db, "overlay network")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"2 sessions for \"overlay network\"", "1. Docker networking", ">>>", "── 1. Docker networking ──", "(fake)"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// Summaries print in result order, each whole, whatever order they streamed in.
	i1, i2 := strings.Index(out, "── 1."), strings.Index(out, "── 2.")
	if i1 < 0 || i2 < i1 || strings.Count(out, "summary.") != 2 {
		t.Errorf("summaries out of order or interleaved:\n%s", out)
	}
	if strings.Contains(out, "\x1b[") {
		t.Error("ANSI escapes written to a non-terminal")
	}
	_, tout, _ := runCLI(t, true, "search", "--db", db, "--no-summary", "overlay network")
	if !strings.Contains(tout, "\x1b[1;7m") || strings.Contains(tout, "──") {
		t.Errorf("terminal output: want highlight escapes and no summaries:\n%s", tout)
	}
}

func TestSearchUsage(t *testing.T) {
	db := searchDB(t)
	noModel(t)
	for _, args := range [][]string{
		{"search", "--db", db, "--sessions", "0", "x"},
		{"search", "--db", db, "--sessions", "11", "x"},
		{"search", "--db", db, "--role", "user,robot", "x"},
		{"search", "--db", db, "--bogus", "x"},
	} {
		if code, _, errs := runCLI(t, false, args...); code != 2 || errs == "" {
			t.Errorf("%v: exit %d (%q), want a usage error", args[3:], code, errs)
		}
	}
	if code, _, errs := runCLI(t, false, "search", "--db", filepath.Join(t.TempDir(), "none.db"), "x"); code != 1 || !strings.Contains(errs, "no such database") {
		t.Errorf("missing database: exit %d %q", code, errs)
	}
}

// TestSearchTextSaysNoModelOnce: without a model every summary is headed
// "Offline summary (no model configured)"; the hint on how to configure one
// comes once, after the last summary, not as a second "no model" line
// between the evidence and the summaries.
func TestSearchTextSaysNoModelOnce(t *testing.T) {
	noModel(t)
	db := searchDB(t)
	code, out, errOut := runCLI(t, false, "--db", db, "search", "overlay network")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if n, want := strings.Count(out, "no model configured"), strings.Count(out, "── "); n != want || want == 0 {
		t.Errorf(`"no model configured" %d times for %d summaries:\n%s`, n, want, out)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if last := lines[len(lines)-1]; !strings.Contains(last, "RECALL_LLM_BASE_URL") || strings.Count(out, "RECALL_LLM_BASE_URL") != 1 {
		t.Errorf("the configuration hint is not the one last line:\n%s", out)
	}
}

// TestSearchHeaderClipsLongQuery: a pasted log line of thousands of
// characters is named in the header, not printed again in full.
func TestSearchHeaderClipsLongQuery(t *testing.T) {
	noModel(t)
	db := searchDB(t)
	for _, query := range []string{
		"overlay network " + strings.Repeat("overlay ", 500), // found
		strings.Repeat("zzqx ", 800),                         // not found
	} {
		code, out, errOut := runCLI(t, false, "--db", db, "search", "--no-summary", query)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		// The header line, wrapped to the width: its continuation lines are indented.
		lines := strings.Split(out, "\n")
		header := lines[0]
		for _, l := range lines[1:] {
			if !strings.HasPrefix(l, "  ") {
				break
			}
			header += " " + strings.TrimSpace(l)
		}
		if n := len([]rune(header)); n > maxQueryEcho+60 || !strings.Contains(header, "…") {
			t.Errorf("header of %d characters, want the query clipped to %d:\n%.300s", n, maxQueryEcho, header)
		}
	}
}
