package secrets

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/recall-dev/recall/recall/secrets/secretstest"
	"github.com/recall-dev/recall/store"
)

// Every form of issue 30, in every place a transcript holds it, is gone
// from every text field of its session once redacted; the rest stays.
func TestFormsInEveryPlacement(t *testing.T) {
	for _, f := range secretstest.Forms {
		for _, p := range secretstest.Placements {
			fx := p.Make(f, "zeppelin")
			sess := Session(store.Session{ID: "s1", Title: fx.Title})
			if leak := f.Leaks(sess.Title); leak != "" {
				t.Errorf("%s/%s: title shows %q", f.Name, p.Name, leak)
			}
			for _, m := range Messages(fx.Messages) {
				for field, text := range map[string]string{"content": m.Content, "tool_calls": m.ToolCalls, "reasoning": m.Reasoning} {
					if leak := f.Leaks(text); leak != "" {
						t.Errorf("%s/%s: %s shows %q", f.Name, p.Name, field, leak)
					}
					if field == "tool_calls" && text != "" && !json.Valid([]byte(text)) {
						t.Errorf("%s/%s: tool_calls no longer JSON: %s", f.Name, p.Name, text)
					}
				}
			}
		}
	}
}

func TestOrdinaryTextUnchanged(t *testing.T) {
	for _, s := range []string{
		"docker network create overlay --attachable; the build passed in 42s",
		"the api key rotation is documented in docs/keys.md",
		`{"command":"ls -la /etc","description":"list config"}`,
		"see https://example.com/docs and http://localhost:8080/health",
		"clone git@github.com:acme/app.git then https://user@github.com/acme/app",
		`C:\new\table and a path with \u escapes \uZZZZ`,
	} {
		if out := Text(s); out != s {
			t.Errorf("changed: %q -> %q", s, out)
		}
	}
}

// The additions (additions.toml, decode.go): passwords in URLs, keys
// written with escapes or followed by an escaped quote.
func TestAdditions(t *testing.T) {
	pw := "Vx9qL2mT7rK4pW8s"
	for _, tc := range []struct{ in, gone string }{
		{"DATABASE_URL=postgres://admin:" + pw + "@db.internal:5432/app", pw},
		{"redis://:" + pw + "@cache:6379/0", pw},
		{"git clone https://deploy:" + pw + "@git.example.com/acme/app.git", pw},
		{"mongodb+srv://svc:" + pw + "@cluster0.example.net/db", pw},
		{`{"command":"export K=sk_live_51` + strings.Repeat("Ab3", 8) + `\"}`, "sk_live_51"},
		{`{"cmd":"export STRIPE=\u0073k_live_51` + strings.Repeat("Zq7", 8) + `"}`, "k_live_51"},
		{`"{\"cmd\":\"export STRIPE=\\u0073k_live_51` + strings.Repeat("Zq7", 8) + `\"}"`, "k_live_51"},
	} {
		out := Text(tc.in)
		if strings.Contains(out, tc.gone) || !strings.Contains(out, "[REDACTED:") {
			t.Errorf("%q -> %q", tc.in, out)
		}
	}
	for _, keep := range []string{
		"postgres://admin:password@localhost/app",
		"postgres://admin:${DB_PASSWORD}@db/app",
		"https://user:****@host/x",
		"postgres://user:<password>@host/db",
	} {
		if out := Text(keep); out != keep {
			t.Errorf("placeholder redacted: %q -> %q", keep, out)
		}
	}
}

// A snippet that cut a key in half loses the half it shows, at either
// edge; highlight markers stay balanced.
func TestWithin(t *testing.T) {
	key := "sk_live_51" + strings.Repeat("Q8v", 10)
	whole := "the zeppelin deploy uses stripe key " + key + " for billing"
	hs, he := store.HighlightStart, store.HighlightEnd
	for _, part := range []string{
		"…the " + hs + "zeppelin" + he + " deploy uses stripe key sk_live_51Q8vQ8v…",
		"…Q8vQ8vQ8vQ8v for " + hs + "billing" + he,
		"…stripe key " + hs + "sk" + he + "_live_51Q8vQ8vQ8vQ8vQ8vQ8vQ8v…",
	} {
		out := Within(part, whole)
		if strings.Contains(out, "Q8vQ8v") || !strings.Contains(out, "[REDACTED:stripe-access-token]") {
			t.Errorf("%q -> %q", part, out)
		}
		if strings.Count(out, hs) != strings.Count(out, he) {
			t.Errorf("unbalanced highlights: %q", out)
		}
	}
	// Not a verbatim cut (whitespace collapsed): the pieces are still found.
	out := Within("…stripe key   sk_live_51Q8vQ8vQ8v…", whole)
	if strings.Contains(out, "Q8vQ8v") {
		t.Errorf("non-verbatim cut: %q", out)
	}
	if got := Within("…the deploy uses…", whole); got != "…the deploy uses…" {
		t.Errorf("a cut without a secret changed: %q", got)
	}
}

// A secret found where its rule sees it is also taken out of the other
// texts of the same set, where it stands alone.
func TestSetSharesFindings(t *testing.T) {
	key := "Zq8rT2vLx9mN4pKw7yHs"
	msgs := Messages([]store.Message{
		{Role: "tool", Content: "DB_PASSWORD=" + key},
		{Role: "assistant", Content: "the password is " + key + ", keep it safe"},
	})
	for _, m := range msgs {
		if strings.Contains(m.Content, key) {
			t.Errorf("%q", m.Content)
		}
	}
	if Text("the password is "+key) == "the password is [REDACTED:generic-api-key]" {
		t.Errorf("a lone text should not know the set's secrets")
	}
}

// The decoded text maps every byte back to where it came from.
func TestDecodeEscapes(t *testing.T) {
	in := `a\"b\u0073\\n\uD83D\uDE00z`
	d, ok := decodeEscapes(in)
	if !ok || d.text != "a\"bs\n😀z" {
		t.Fatalf("%v %q", ok, d.text)
	}
	if len(d.from) != len(d.text)+1 || d.from[len(d.text)] != int32(len(in)) {
		t.Fatalf("map %v", d.from)
	}
	if s := strings.Index(d.text, "s"); in[d.from[s]:d.from[s+1]] != `\u0073` {
		t.Errorf("s from %q", in[d.from[s]:d.from[s+1]])
	}
	if _, ok := decodeEscapes("no escapes here"); ok {
		t.Error("decoded text without escapes")
	}
}

// A secret whose rule reads across two JSON literals is redacted literal
// by literal: the text stays JSON.
func TestJSONStaysValid(t *testing.T) {
	key := "-----BEGIN RSA PRIVATE KEY-----\\n" + strings.Repeat("MIIEowIBAAKCAQEA7x", 5)
	raw := `[{"a":"` + key + `","b":"x\n-----END RSA PRIVATE KEY-----"}]`
	if !json.Valid([]byte(raw)) {
		t.Fatal("fixture")
	}
	out := JSON(raw)
	if !json.Valid([]byte(out)) {
		t.Errorf("not JSON: %s", out)
	}
}

// BenchmarkRedactAnswer: one answer's worth of text (30 messages of
// ~1,000 characters that name keys and tokens, one secret among them),
// scanned cold (as the first time) and again (cached).
func BenchmarkRedactAnswer(b *testing.B) {
	msgs := make([]string, 30)
	for i := range msgs {
		msgs[i] = fmt.Sprintf("%d: the deploy script restarted the api service, refreshed the auth token and checked the logs; ", i) +
			strings.Repeat("the deploy script restarted the api service and checked the logs; ", 13)
	}
	msgs[7] += " export GITHUB_TOKEN=" + secretstest.Forms[2].Secret
	if err := Load(); err != nil {
		b.Fatal(err)
	}
	b.Run("cold", func(b *testing.B) {
		for range b.N {
			for _, m := range msgs {
				redact(m)
			}
		}
	})
	b.Run("cached", func(b *testing.B) {
		for range b.N {
			for _, m := range msgs {
				Text(m)
			}
		}
	})
}

// A title stored cut at the store's limit loses the start of a key at its
// end, which no rule can read; an ordinary long title keeps its words.
func TestTitleCutKey(t *testing.T) {
	key := "sk-ant-api03-zBDzFOr0sIhZdg4fHZqJVXOgtAUrat4CPjNUzkZ"
	cut := "deploy notes " + strings.Repeat("x", 100-13-len("ANTHROPIC_API_KEY=")-len(key)-1) + " ANTHROPIC_API_KEY=" + key
	if n := len([]rune(cut)); n != store.TitleMaxChars {
		t.Fatalf("fixture is %d characters", n)
	}
	if out := Title(cut); strings.Contains(out, "zBDzFOr0sIhZ") || !strings.HasSuffix(out, "[REDACTED:cut]") {
		t.Errorf("Title(%q) = %q", cut, out)
	}
	for _, keep := range []string{
		strings.Repeat("a configuration-management walkthrough ", 3)[:100],
		"short title with a key-looking tail zBDzFOr0sIhZdg4fHZqJVXOgtAUrat4CPjNUzkZ", // not cut: the rules' to judge
	} {
		if out := Title(keep); out != keep {
			t.Errorf("Title(%q) = %q", keep, out)
		}
	}
}
