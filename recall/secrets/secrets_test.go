package secrets

import (
	"strings"
	"testing"
)

// Fake credentials shaped like real ones (gitleaks' rules check prefixes,
// lengths and entropy); none of them is live.
var samples = map[string]string{
	"github-pat":          "ghp_8xQ2mZr4Tn6Vb1Kc9Lp3Wd7Fh5Js0Ga2Ye4U",
	"aws-access-token":    "AKIAQ3EGVP7ZKXJ4WMNR",
	"slack-bot-token":     "xoxb-263594206564-2343594206574-FGqddMF8t08v8N7Oq4i57vs1",
	"stripe-access-token": "sk_live_51HcR2qJx8Zt0Ykm3Wq4Lp9Vn",
}

func TestRedact(t *testing.T) {
	r, err := New()
	if err != nil {
		t.Fatal(err)
	}
	for rule, secret := range samples {
		in := "the agent ran: export TOKEN=" + secret + " and went on"
		out := r.String(in)
		if strings.Contains(out, secret) || !strings.Contains(out, "[REDACTED:") {
			t.Errorf("%s: %q", rule, out)
		}
	}
	plain := "docker network create overlay --attachable; the build passed in 42s"
	if out := r.String(plain); out != plain {
		t.Errorf("ordinary text changed: %q", out)
	}
	type inner struct{ Content string }
	type env struct {
		Title   *string
		Results []inner
		Other   map[string]string
	}
	title := "key " + samples["github-pat"]
	e := &env{Title: &title, Results: []inner{{Content: "AWS " + samples["aws-access-token"]}}, Other: map[string]string{"x": samples["github-pat"]}}
	r.Walk(e)
	if strings.Contains(*e.Title, "ghp_") || strings.Contains(e.Results[0].Content, "AKIA") || strings.Contains(e.Other["x"], "ghp_") {
		t.Errorf("Walk left a secret: %+v %q", e, *e.Title)
	}
}

// BenchmarkRedactAnswer: the cost of redacting one answer's worth of
// text (30 messages of ~1,000 characters, one secret among them).
func BenchmarkRedactAnswer(b *testing.B) {
	msgs := make([]string, 30)
	for i := range msgs {
		msgs[i] = strings.Repeat("the deploy script restarted the api service and checked the logs; ", 15)
	}
	msgs[7] += " export GITHUB_TOKEN=" + samples["github-pat"]
	if _, err := New(); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for range b.N {
		r, _ := New()
		for _, m := range msgs {
			r.String(m)
		}
	}
}
