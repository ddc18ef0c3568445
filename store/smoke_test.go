package store

import (
	"context"
	"path/filepath"
	"testing"
	"time"
)

func TestSmoke(t *testing.T) {
	ctx := context.Background()
	st, err := Open(ctx, filepath.Join(t.TempDir(), "s.db"), Options{Create: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	err = st.Write(ctx, func(tx *Tx) error {
		if err := tx.UpsertSession(Session{ID: "a", Source: "cli", Title: "docker"}); err != nil {
			return err
		}
		_, err := tx.InsertMessages([]Message{
			{SessionID: "a", Role: "user", Content: "how do I fix the docker networking error", Timestamp: time.Now()},
			{SessionID: "a", Role: "assistant", Content: "修改youer服务端 配置 数据库迁移失败", Timestamp: time.Now()},
		})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"docker", "dock", "netw*", "youer", "修改", "改", "数据库", "docker 数据库", "docker 配置", `"docker`, "deploy OR", "foo(", "-x", "c++", ":", "*", "🙂", "NEAR(docker error, 5)", "content: docker"} {
		for _, ph := range []Phase{PhaseFirst, PhaseFinal} {
			r, err := st.SearchMessages(ctx, q, SearchFilter{Typing: true, Phase: ph})
			if err != nil {
				t.Fatalf("%q: %v", q, err)
			}
			t.Logf("%q phase %d -> %s %q hits=%d", q, ph, r.Index, r.Query, len(r.Hits))
			for _, h := range r.Hits {
				t.Logf("   %s", h.Snippet)
			}
		}
	}
}
