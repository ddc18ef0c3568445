package store

import (
	"context"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestLoadProbe(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("PROBE_N"))
	if n == 0 {
		t.Skip("PROBE_N not set")
	}
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "p.db")
	if p := os.Getenv("PROBE_DB"); p != "" {
		path = p
	}
	st, err := Open(ctx, path, Options{Create: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for _, sql := range strings.Split(os.Getenv("PROBE_SQL"), ";") {
		if strings.TrimSpace(sql) != "" {
			if err := st.writer.exec(sql); err != nil {
				t.Fatal(sql, err)
			}
		}
	}
	rng := rand.New(rand.NewSource(1))
	words := make([]string, 5000)
	for i := range words {
		b := make([]byte, 3+rng.Intn(8))
		for j := range b {
			b[j] = byte('a' + rng.Intn(26))
		}
		words[i] = string(b)
	}
	zh := []string{"数据库", "迁移", "失败", "服务器", "内存", "泄漏", "部署", "集群", "配置", "修改"}
	var corpus []string
	if os.Getenv("PROBE_REAL") != "" {
		files, _ := filepath.Glob("/usr/local/go/src/net/http/*.go")
		for _, f := range files {
			b, _ := os.ReadFile(f)
			corpus = append(corpus, strings.Split(string(b), "\n")...)
		}
	}
	mk := func() string {
		if corpus != nil {
			s := ""
			for len(s) < 300 {
				s += strings.TrimSpace(corpus[rng.Intn(len(corpus))]) + " "
			}
			if rng.Intn(7) == 0 {
				s += zh[rng.Intn(len(zh))] + zh[rng.Intn(len(zh))]
			}
			return s
		}
		s := ""
		for len(s) < 300 {
			if rng.Intn(10) == 0 {
				s += zh[rng.Intn(len(zh))]
			}
			s += words[int(float64(len(words))*rng.Float64()*rng.Float64()*rng.Float64())] + " "
		}
		return s
	}
	start := time.Now()
	batch := 5000
	ts := time.Now().Add(-time.Hour * 24 * 365)
	for i := 0; i < n; i += batch {
		var msgs []Message
		sid := fmt.Sprintf("s%d", i/50)
		err := st.Write(ctx, func(tx *Tx) error {
			msgs = msgs[:0]
			for j := 0; j < batch; j++ {
				sid = fmt.Sprintf("s%d", (i+j)/50)
				if (i+j)%50 == 0 {
					if err := tx.UpsertSession(Session{ID: sid, Source: "cli", StartedAt: ts}); err != nil {
						return err
					}
				}
				ts = ts.Add(time.Second)
				msgs = append(msgs, Message{SessionID: sid, Role: []string{"user", "assistant"}[j%2], Content: mk(), Timestamp: ts})
				if len(msgs) == 5000 {
					if _, err := tx.InsertMessages(msgs); err != nil {
						return err
					}
					msgs = msgs[:0]
				}
			}
			_, err := tx.InsertMessages(msgs)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	el := time.Since(start)
	t.Logf("loaded %d in %v: %.0f msg/s", n, el, float64(n)/el.Seconds())
	for _, q := range []string{"t", "tr", "co", words[0], words[4000], zh[0], "数据", "改"} {
		for _, ph := range []Phase{PhaseFirst, PhaseFinal} {
			t0 := time.Now()
			r, err := st.SearchMessages(ctx, q, SearchFilter{Typing: true, Phase: ph})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%-10q ph%d %s %d hits %v complete=%v", q, ph, r.Index, len(r.Hits), time.Since(t0), r.Complete)
		}
	}
}
