package recall

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/recall-dev/recall/assets"
	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer/jsonl"
)

// m marks a word as the store's snippet() does.
func m(w string) string { return store.HighlightStart + w + store.HighlightEnd }

func TestReadableSnippet(t *testing.T) {
	tests := map[string]struct{ in, want string }{
		"prose then a cut call": {
			"`" + m("docker") + " " + m("network") + " connect` attaches a running container, so the data stays put.  [{\"id…",
			m("docker") + " " + m("network") + " connect attaches a running container, so the data stays put.…"},
		"whole call": {
			`[{"id":"toolu_012c0249","type":"function","function":{"name":"Bash","arguments":"{\"command\": \"ssh staging-1 '` + m("docker") + " " + m("network") + ` connect app_default redis'\"}"}}]`,
			"⚙ Bash ssh staging-1 '" + m("docker") + " " + m("network") + " connect app_default redis'"},
		"cut inside the function object": {
			`…function":{"name":"Bash","arguments":"{\"command\": \"` + m("docker") + ` run -d --name api --` + m("network") + ` ledgerly-net -e DATABASE_URL…`,
			"…⚙ Bash " + m("docker") + " run -d --name api --" + m("network") + " ledgerly-net -e DATABASE_URL…"},
		"cut inside the arguments string": {
			`…ledgerly-net\\ndocker ` + m("network") + ` inspect \\\"$NET\\\" >/dev/null 2>&1 || ` + m("docker") + ` create \\\"$NET\\\"\\n\\ndocker…`,
			"…⚙ ledgerly-net docker " + m("network") + ` inspect "$NET" >/dev/null 2>&1 || ` + m("docker") + ` create "$NET" docker…`},
		// Issue 32: a cut inside the arguments string with no quote in it
		// showed `%i\nAfter=network.target\n\n[Service]`.
		"cut inside the arguments string, newlines only": {
			`… %i\\nAfter=` + m("network") + `.target\\n\\n[Service]\\nEnvi…`,
			"…⚙ %i After=" + m("network") + ".target [Service] Envi…"},
		// The bare {"name","input"} form escapes once.
		"cut inside an input object": {
			`…"command":"cat <<EOF\nAfter=` + m("network") + `.target\nEOF"}}]`,
			"…⚙ cat <<EOF After=" + m("network") + ".target EOF"},
		"fence and bold": {
			"…Quick fix: ```bash " + m("docker") + " network connect app_default redis ``` Proper fix: a **user-defined** net…",
			"…Quick fix: " + m("docker") + " network connect app_default redis Proper fix: a user-defined net…"},
		"heading":                        {"## 1. Create a " + m("network"), "1. Create a " + m("network")},
		"plain":                          {"just " + m("words") + " here", "just " + m("words") + " here"},
		"tool output json is not a call": {`{"level": "info", "msg": "` + m("redis") + ` connected"}`, `{"level": "info", "msg": "` + m("redis") + ` connected"}`},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := ReadableSnippet(tc.in); got != tc.want {
				t.Errorf("ReadableSnippet(%q)\n got %q\nwant %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestReadableText(t *testing.T) {
	msg := store.Message{Role: "assistant", Content: "Run this:\n\n```bash\ndocker ps\n```\n\n**Done**",
		ToolCalls: `[{"id":"toolu_1","type":"function","function":{"name":"Bash","arguments":"{\"command\":\"docker network ls\",\"description\":\"List networks\"}"}}]`}
	if got, want := ReadableText(msg), "Run this: docker ps Done ⚙ Bash docker network ls"; got != want {
		t.Errorf("ReadableText = %q, want %q", got, want)
	}
	if got := ReadableText(store.Message{Role: "assistant"}); got != "" {
		t.Errorf("empty message = %q", got)
	}
	calls, ok := ParseToolCalls(msg.ToolCalls)
	if !ok || len(calls) != 1 {
		t.Fatalf("ParseToolCalls = %v, %v", calls, ok)
	}
	if got, want := calls[0].PrettyArgs(), "{\n  \"command\": \"docker network ls\",\n  \"description\": \"List networks\"\n}"; got != want {
		t.Errorf("PrettyArgs = %q, want %q", got, want)
	}
	flat := `[{"name":"Read","input":{"file_path":"/etc/hosts"}},{"name":"Bash","arguments":{"cmd":["bash","-lc","ls"]}}]`
	if got, want := DescribeToolCalls(flat), "Read /etc/hosts · Bash bash -lc ls"; got != want {
		t.Errorf("DescribeToolCalls(flat) = %q, want %q", got, want)
	}
}

// unreadable reports what a person should never read in a snippet or an
// evidence line: tool-call JSON, escaped quotes, markdown that cannot render.
// (JSON a user wrote in prose, or a sed script's \n, are what they are.)
func unreadable(s string, snippet bool) string {
	bad := []string{`"toolu_`, `"call_`, `"function":`, `"arguments":`, "```", "**"}
	if snippet {
		bad = append(bad, `\"`, `\\n`, `[{"`)
	}
	for _, b := range bad {
		if strings.Contains(s, b) {
			return b
		}
	}
	return ""
}

// On the demo history, no result of a query that hits tool calls and fenced
// commands shows JSON or raw markdown, and no evidence line is empty.
func TestDiscoverSnippetsAndEvidenceReadable(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "demo.db"), store.Options{Create: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := jsonl.ImportReader(ctx, st, "demo.jsonl", bytes.NewReader(assets.DemoJSONL())); err != nil {
		t.Fatal(err)
	}
	e := New(st, Options{Sessions: 10})
	for _, q := range []string{"docker network", "docker", "network connect", "redis", "migration", "デプロイ", "数据库"} {
		for _, phase := range []store.Phase{store.PhaseFirst, store.PhaseFinal} {
			d, err := e.Discover(ctx, q, DiscoverOptions{Limit: 10, Filter: store.SearchFilter{Phase: phase, Typing: true}})
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range d.Results {
				if bad := unreadable(r.Snippet, true); bad != "" {
					t.Errorf("%q: snippet of %s shows %q: %q", q, r.SessionID, bad, r.Snippet)
				}
				for _, msg := range append(append(append([]store.Message{}, r.BookendStart...), r.Messages...), r.BookendEnd...) {
					text := ReadableText(msg)
					if text == "" {
						t.Errorf("%q: evidence message #%d of %s is empty", q, msg.ID, r.SessionID)
					}
					if bad := unreadable(text, false); bad != "" && msg.Role != "tool" {
						t.Errorf("%q: evidence #%d shows %q: %q", q, msg.ID, bad, text)
					}
				}
			}
		}
	}
}

// ReadableArgs shows every argument with its strings decoded, the telling
// one first and a multi-line one as an indented block; FlatArgs the same
// on one line.
func TestReadableArgs(t *testing.T) {
	calls, ok := ParseToolCalls(`[{"function":{"name":"Edit","arguments":"{\"new_string\": \"NET=x\\ndocker network inspect \\\"$NET\\\"\", \"file_path\": \"dev-up.sh\", \"replace_all\": false}"}}]`)
	if !ok || len(calls) != 1 {
		t.Fatal("not parsed")
	}
	want := "file_path: dev-up.sh\nnew_string: |\n  NET=x\n  docker network inspect \"$NET\"\nreplace_all: false"
	if got := calls[0].ReadableArgs(); got != want {
		t.Errorf("ReadableArgs =\n%s\nwant\n%s", got, want)
	}
	if got, want := calls[0].FlatArgs(), `file_path=dev-up.sh new_string=NET=x docker network inspect "$NET" replace_all=false`; got != want {
		t.Errorf("FlatArgs = %q, want %q", got, want)
	}
	var b strings.Builder
	if err := ExportMarkdown(&b, store.Session{ID: "s"}, []store.Message{{Role: "assistant", Content: "Editing.", ToolCalls: `[{"function":{"name":"Edit","arguments":"{\"new_string\": \"a \\\"b\\\"\"}"}}]`}}); err != nil {
		t.Fatal(err)
	}
	if md := b.String(); !strings.Contains(md, "⚙ **Edit**") || !strings.Contains(md, `new_string: a "b"`) || strings.Contains(md, `\"`) {
		t.Errorf("the markdown's tool call is not decoded:\n%s", md)
	}
}
