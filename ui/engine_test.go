package ui

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/recall-dev/recall/recall"
	"github.com/recall-dev/recall/recall/llm"
	"github.com/recall-dev/recall/store"
)

// openTestStore creates a store in t.TempDir() holding the demo backend's sessions.
func openTestStore(t *testing.T) *store.Store {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "state.db"), store.Options{Create: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	demo := demoBackend()
	err = st.Write(ctx, func(tx *store.Tx) error {
		for _, s := range demo.sessions {
			if err := tx.UpsertSession(s.Session); err != nil {
				return err
			}
			msgs := append([]store.Message(nil), demo.msgs[s.ID]...)
			for i := range msgs {
				msgs[i].ID = 0
			}
			if _, err := tx.InsertMessages(msgs); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// sseServer streams an OpenAI-compatible chat completion: one delta per
// word of answer, pause apart, then [DONE]. It counts requests and requests
// whose client went away before the end.
type sseServer struct {
	*httptest.Server
	requests, aborted atomic.Int32
}

func newSSEServer(t *testing.T, answer string, pause time.Duration) *sseServer {
	s := &sseServer{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.requests.Add(1)
		if !strings.HasSuffix(r.URL.Path, "/chat/completions") {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		fl := w.(http.Flusher)
		for _, word := range strings.SplitAfter(answer, " ") {
			chunk, _ := json.Marshal(map[string]any{"choices": []any{map[string]any{"delta": map[string]string{"content": word}}}})
			fmt.Fprintf(w, "data: %s\n\n", chunk)
			fl.Flush()
			select {
			case <-r.Context().Done():
				s.aborted.Add(1)
				return
			case <-time.After(pause):
			}
		}
		fmt.Fprint(w, "data: [DONE]\n\n")
		fl.Flush()
	}))
	t.Cleanup(s.Close)
	return s
}

func engineDriver(t *testing.T, baseURL string) *driver {
	st := openTestStore(t)
	var cfg *llm.Config
	if baseURL != "" {
		cfg = &llm.Config{BaseURL: baseURL, Model: "test-model", MaxRetries: -1}
	}
	eng := recall.New(st, recall.Options{Sessions: recall.MaxSessions, LLM: cfg})
	return newDriver(t, NewEngineBackend(eng, st), 120, 30)
}

func TestEngineSearchAndSummaryStream(t *testing.T) {
	answer := strings.Repeat("The migration was fixed with a **busy timeout**. ", 30)
	srv := newSSEServer(t, answer, 200*time.Microsecond)
	d := engineDriver(t, srv.URL+"/v1")
	d.pump("browse", func() bool { return len(d.m.list.items) == 4 })
	d.typ("migration")
	d.pump("search", func() bool { return d.m.finalSeq == d.m.seq && d.m.lastQuery == "migration" && len(d.m.list.items) > 0 })
	if got := d.m.list.items[0].SessionID; got != "cc-1111" {
		t.Fatalf("top hit %s, want cc-1111", got)
	}
	if !strings.Contains(d.m.list.View(), "migration") {
		t.Fatal("snippet not in the list")
	}
	d.key("enter")
	d.pump("summary", func() bool { return d.m.summary.done })
	s := d.screen()
	if !strings.Contains(s, "busy timeout") || !strings.Contains(s, "summary by test-model") {
		t.Fatalf("summary panel:\n%s", s)
	}
	if n := d.m.summary.cache.Renders(); n > 100 {
		t.Errorf("%d Glamour renders for 240 deltas: not frame-bounded", n)
	}
	if srv.requests.Load() != 1 {
		t.Errorf("%d model requests, want 1", srv.requests.Load())
	}
}

func TestEngineSummaryCancel(t *testing.T) {
	srv := newSSEServer(t, strings.Repeat("slow ", 1000), 20*time.Millisecond)
	d := engineDriver(t, srv.URL)
	d.pump("browse", func() bool { return len(d.m.list.items) == 4 })
	d.key("tab")
	d.key("enter")
	d.pump("first tokens", func() bool { doc, _, _ := d.m.summary.stream.snapshot(); return strings.Count(doc, "slow") >= 3 })
	d.key("esc")
	d.pump("cancel", func() bool { return d.m.summary.done && srv.aborted.Load() == 1 })
	if !strings.Contains(d.screen(), "summary cancelled") {
		t.Fatalf("no cancelled label:\n%s", d.screen())
	}
}

func TestEngineOfflineSummaryLabelled(t *testing.T) {
	d := engineDriver(t, "")
	d.pump("browse", func() bool { return len(d.m.list.items) == 4 })
	d.typ("deploy")
	d.pump("search", func() bool { return d.m.finalSeq == d.m.seq && len(d.m.list.items) > 0 })
	d.key("enter")
	d.pump("summary", func() bool { return d.m.summary.done })
	// Labelled once: the panel's label is the summary's own heading.
	if s := d.screen(); strings.Count(strings.ToLower(s), "no model configured") != 1 {
		t.Fatalf("offline summary not labelled exactly once:\n%s", s)
	}
}
