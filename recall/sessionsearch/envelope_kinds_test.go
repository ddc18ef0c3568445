package sessionsearch

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/recall-dev/recall/recall"
	"github.com/recall-dev/recall/store"
)

// TestEnvelopeDisplayKinds: in the JSON a hit in text the agent program
// wrote says matched_role "system" with matched_display_kind, and evidence
// messages carry role "system" and display_kind for such rows; a slash
// command stays role "user" with display_kind "command".
func TestEnvelopeDisplayKinds(t *testing.T) {
	d := &recall.Discovery{Results: []recall.Result{{
		SessionID: "k", MatchedRole: "system", MatchedDisplayKind: store.DisplayKindAgent, MatchMessageID: 3,
		Messages: []store.Message{
			{ID: 2, Role: "user", Content: "/compact", DisplayKind: store.DisplayKindCommand},
			{ID: 3, Role: "user", Content: "[Request interrupted by user]", DisplayKind: store.DisplayKindAgent},
			{ID: 4, Role: "user", Content: "go on"},
		},
	}}}
	raw, err := json.Marshal(discoverEnvelope(d, nil))
	if err != nil {
		t.Fatal(err)
	}
	out := string(raw)
	for _, want := range []string{`"matched_role":"system","match_message_id":3`, `"matched_display_kind":"agent"}`,
		`{"id":2,"role":"user","content":"/compact","timestamp":0,"display_kind":"command"}`,
		`{"id":3,"role":"system","content":"[Request interrupted by user]","timestamp":0,"anchor":true,"display_kind":"agent"}`,
		`{"id":4,"role":"user","content":"go on","timestamp":0}`} {
		if !strings.Contains(out, want) {
			t.Errorf("envelope lacks %s:\n%s", want, out)
		}
	}
}
