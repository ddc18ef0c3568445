package store

import (
	"context"
	"path/filepath"
	"reflect"
	"testing"
	"time"
)

func TestSources(t *testing.T) {
	ctx := context.Background()
	st, err := Open(ctx, filepath.Join(t.TempDir(), "state.db"), Options{Create: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if got, err := st.Sources(ctx); err != nil || len(got) != 0 {
		t.Fatalf("empty database: %q, %v", got, err)
	}
	err = st.Write(ctx, func(tx *Tx) error {
		for i, src := range []string{"codex", "claude-code", "codex", "cli"} {
			if err := tx.UpsertSession(Session{ID: string(rune('a' + i)), Source: src, StartedAt: time.Unix(int64(i), 0)}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	got, err := st.Sources(ctx)
	if want := []string{"claude-code", "cli", "codex"}; err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("Sources = %q, %v; want %q", got, err, want)
	}
}
