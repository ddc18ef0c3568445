package store

import "testing"

func TestRootSessionsBatch(t *testing.T) {
	st := openTestStore(t)
	ctx := t.Context()
	err := st.Write(ctx, func(tx *Tx) error {
		for _, s := range []Session{{ID: "root"}, {ID: "child", ParentID: "root"}, {ID: "grand", ParentID: "child"}, {ID: "alone"}, {ID: "c1"}, {ID: "c2", ParentID: "c1"}} {
			if err := tx.UpsertSession(s); err != nil {
				return err
			}
		}
		return tx.c.run("UPDATE sessions SET parent_session_id = 'c2' WHERE id = 'c1'") // a cycle
	})
	if err != nil {
		t.Fatal(err)
	}
	got, err := st.RootSessions(ctx, []string{"grand", "child", "root", "alone", "missing", "c1", "c2"})
	if err != nil {
		t.Fatal(err)
	}
	for id, want := range map[string]string{"grand": "root", "child": "root", "root": "root", "alone": "alone", "missing": "missing"} {
		if got[id] != want {
			t.Errorf("root of %s = %q, want %q", id, got[id], want)
		}
	}
	for _, id := range []string{"c1", "c2"} {
		if r := got[id]; r != "c1" && r != "c2" {
			t.Errorf("cycle member %s resolved outside the cycle: %q", id, r)
		}
	}
	for _, id := range []string{"grand", "child", "root", "alone", "c1"} {
		one, err := st.RootSession(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if id != "c1" && one != got[id] {
			t.Errorf("RootSession(%s) = %q, batch says %q", id, one, got[id])
		}
	}
}

func openTestStore(t *testing.T) *Store {
	t.Helper()
	st, err := Open(t.Context(), t.TempDir()+"/t.db", Options{Create: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}
