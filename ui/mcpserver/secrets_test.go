package mcpserver

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/recall-dev/recall/store"
)

// Answers to the model never carry a secret: the token in a transcript is
// [REDACTED:github-pat] in discover's evidence and in read.
func TestAnswersRedactSecrets(t *testing.T) {
	const token = "ghp_8xQ2mZr4Tn6Vb1Kc9Lp3Wd7Fh5Js0Ga2Ye4U"
	fx := writeFixture(t)
	st, err := store.Open(context.Background(), fx.path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	err = st.Write(context.Background(), func(tx *store.Tx) error {
		_, err := tx.InsertMessages([]store.Message{{SessionID: "other", Role: "assistant", Timestamp: time.Unix(fixtureT0+201*60, 0),
			Content: "the zeppelin deploy needs export GITHUB_TOKEN=" + token}})
		return err
	})
	st.Close()
	if err != nil {
		t.Fatal(err)
	}
	cs := connect(t, fx, nil, 0)
	for _, args := range []map[string]any{{"query": "zeppelin"}, {"session_id": "other"}} {
		a := call(t, cs, args)
		if a.isError || strings.Contains(a.text, token) || !strings.Contains(a.text, "[REDACTED:github-pat]") {
			t.Errorf("%v: %.1500s", args, a.text)
		}
	}
}
