package cli

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/recall-dev/recall/store"
)

// TestImportCompletesTrigram: `recall import` writes rows and the unicode61
// index first and the trigram index in one pass after; when it returns the
// pass is done (nothing deferred is left) and substring search answers
// from the trigram index itself.
func TestImportCompletesTrigram(t *testing.T) {
	db := filepath.Join(t.TempDir(), "state.db")
	tree := writeClaudeTree(t, t.TempDir(), 6, 40, 12)
	if code, _, errOut := runCLI(t, false, "--db", db, "import", "claude", tree.Dir); code != 0 {
		t.Fatalf("import: exit %d: %s", code, errOut)
	}
	st, err := store.Open(context.Background(), db, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if n, err := st.DeferredTrigram(context.Background()); err != nil || n != 0 {
		t.Errorf("after the import %d rows wait for the trigram index (%v)", n, err)
	}
	res, err := st.SearchMessages(context.Background(), "verlay", store.SearchFilter{})
	if err != nil || len(res.Hits) == 0 || res.Index != store.IndexTrigram {
		t.Errorf("substring search: %d hits from %s (%v), want trigram hits", len(res.Hits), res.Index, err)
	}
}
