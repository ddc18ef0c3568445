package store

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
)

// A title holds forgotten text when it holds the text or all its words,
// or was cut from a forgotten message.
func TestTitleHolds(t *testing.T) {
	for _, tc := range []struct {
		title, text string
		contents    []string
		want        bool
	}{
		{"key ghp_AbC123", "ghp_abc123", nil, true},
		{"Fix the Docker password leak", "docker password", nil, true},
		{"Fix the docker setup", "docker password", nil, false},
		{"deploy with the token sk_live_x…", "", []string{"deploy with the token sk_live_xyz and go"}, true},
		{"deploy with the  token #2", "", []string{"please deploy with the token now"}, true},
		{"short", "", []string{"short"}, false}, // too short to say it was cut from the message
		{"Weekly sync", "", []string{"the token is 42"}, false},
	} {
		if got := titleHolds(tc.title, tc.text, tc.contents); got != tc.want {
			t.Errorf("titleHolds(%q, %q) = %v, want %v", tc.title, tc.text, got, tc.want)
		}
	}
}

// fileHolds finds every copy, one that straddles two reads too, once.
func TestFileHolds(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.db")
	needle := "ghp_Straddle0123456789"
	data := bytes.Repeat([]byte{'.'}, 4<<20+30)
	copy(data[4<<20-5:], needle) // across the first read's end
	copy(data[100:], needle)
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path+"-wal", []byte("x"+needle), 0o600); err != nil {
		t.Fatal(err)
	}
	n, err := fileHolds(path, []string{needle, "absent-needle"})
	if err != nil || n != 3 {
		t.Errorf("fileHolds = %d, %v; want 3", n, err)
	}
}

// Forgetting by text clears the title that held it and keeps an import
// from setting it again; the file check finds nothing left.
func TestForgetClearsTitle(t *testing.T) {
	ctx := context.Background()
	st := mustOpenPath(t, filepath.Join(t.TempDir(), "recall.db"), Options{Create: true})
	const token = "ghp_TitleToken0123456789abcdefABCDEF"
	sess := Session{ID: "s1", Source: "claude", Title: "key " + token}
	msgs := []Message{{SessionID: "s1", Role: "user", Content: "push with " + token, SourceKey: "k1"}, {SessionID: "s1", Role: "assistant", Content: "pushed", SourceKey: "k2"}}
	write := func() {
		if err := st.Write(ctx, func(tx *Tx) error {
			if err := tx.UpdateSession(sess); err != nil {
				return err
			}
			m := append([]Message(nil), msgs...)
			_, err := tx.InsertMessages(m)
			return err
		}); err != nil {
			t.Fatal(err)
		}
	}
	write()
	res, err := st.SearchMessages(ctx, token, SearchFilter{})
	if err != nil || len(res.Hits) != 1 {
		t.Fatalf("search: %v %v", res.Hits, err)
	}
	fr, err := st.Forget(ctx, nil, []int64{res.Hits[0].MessageID}, ForgetOptions{Text: token})
	if err != nil {
		t.Fatal(err)
	}
	if fr.Messages != 1 || fr.Titles != 1 || fr.Left != 0 {
		t.Errorf("Forget = %+v, want 1 message, 1 title, nothing left", fr)
	}
	write() // the importer runs again: title and message stay forgotten
	got, err := st.Session(ctx, "s1")
	if err != nil || got.Title != "" || got.MessageCount != 1 {
		t.Errorf("after re-import: title %q, %d messages, %v", got.Title, got.MessageCount, err)
	}
}
