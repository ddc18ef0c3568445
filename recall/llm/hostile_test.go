package llm_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/recall-dev/recall/recall/llm"
)

// keyRecorder streams "ok" and records the Authorization header it saw.
type keyRecorder struct {
	mu   sync.Mutex
	auth []string
}

func (k *keyRecorder) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	k.mu.Lock()
	k.auth = append(k.auth, r.Header.Get("Authorization"))
	k.mu.Unlock()
	w.Header().Set("Content-Type", "text/event-stream")
	fmt.Fprint(w, "data: {\"choices\":[{\"delta\":{\"content\":\"ok\"}}]}\n\ndata: [DONE]\n\n")
}

func (k *keyRecorder) seen() []string {
	k.mu.Lock()
	defer k.mu.Unlock()
	return append([]string(nil), k.auth...)
}

// A 307 to another port of the same host is another origin: the API key
// must not follow it (curl's CVE-2022-27776); a 307 within the same origin
// keeps it. Two real servers on 127.0.0.1.
func TestRedirectDropsKeyOffOrigin(t *testing.T) {
	for name, sameServer := range map[string]bool{"other port": false, "same origin": true} {
		t.Run(name, func(t *testing.T) {
			target := &keyRecorder{}
			second := httptest.NewServer(target)
			defer second.Close()
			var first *httptest.Server
			first = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if sameServer && r.URL.Path == "/moved/chat/completions" {
					target.ServeHTTP(w, r)
					return
				}
				dest := second.URL + r.URL.Path
				if sameServer {
					dest = first.URL + "/moved/chat/completions"
				}
				http.Redirect(w, r, dest, http.StatusTemporaryRedirect)
			}))
			defer first.Close()
			text, err := llm.NewClient(testConfig(first.URL)).Stream(context.Background(),
				[]llm.Message{{Role: "user", Content: "x"}}, nil)
			if err != nil || text != "ok" {
				t.Fatalf("Stream = %q, %v", text, err)
			}
			got := target.seen()
			want := ""
			if sameServer {
				want = "Bearer sk-test-secret"
			}
			if len(got) != 1 || got[0] != want {
				t.Errorf("the redirect target saw Authorization %q, want %q", got, want)
			}
		})
	}
}

// A stream far longer than max_tokens asks for is cut at
// MaxTokens*BytesPerToken, and no more of it is read: the old client
// collected all of it (1.6 GB RSS in search for a 100 MB answer).
func TestStreamCappedToWhatWasAsked(t *testing.T) {
	piece := strings.Repeat("abcdefgh", 128) // 1 KiB per delta
	for name, jsonBody := range map[string]bool{"event stream": false, "one JSON body": true} {
		t.Run(name, func(t *testing.T) {
			written := make(chan int, 1)
			ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if jsonBody {
					w.Header().Set("Content-Type", "application/json")
					fmt.Fprintf(w, `{"choices":[{"message":{"content":"%s"}}]}`, strings.Repeat(piece, 8<<10))
					written <- 0
					return
				}
				w.Header().Set("Content-Type", "text/event-stream")
				n := 0
				for ; n < 8<<10; n++ { // 8 MiB of text, then [DONE]
					if _, err := fmt.Fprintf(w, "data: {\"choices\":[{\"delta\":{\"content\":\"%s\"}}]}\n\n", piece); err != nil {
						break
					}
				}
				fmt.Fprint(w, "data: [DONE]\n\n")
				written <- n
			}))
			defer ts.Close()
			cfg := testConfig(ts.URL)
			cfg.MaxTokens = 100
			limit := cfg.MaxTokens * llm.BytesPerToken
			deltas := 0
			text, err := llm.NewClient(cfg).Stream(context.Background(),
				[]llm.Message{{Role: "user", Content: "x"}}, func(d string) { deltas += len(d) })
			if jsonBody { // one document cannot be cut: it is refused, unread past the bound
				if err == nil || !strings.Contains(err.Error(), "far more than max_tokens") {
					t.Errorf("Stream = %d bytes, %v; want an error naming the size", len(text), err)
				}
				return
			}
			if err != nil {
				t.Fatalf("Stream: %v", err)
			}
			if len(text) != limit || deltas != limit {
				t.Errorf("kept %d bytes, reported %d in deltas; want %d", len(text), deltas, limit)
			}
			if n := <-written; !jsonBody && n == 8<<10 {
				t.Errorf("the server wrote all %d deltas: the client read the stream to its end", n)
			}
		})
	}
}

// A server that trickles a comment line every 20 ms never trips the idle
// timeout; the total deadline (timeout_seconds) ends the summary anyway.
func TestStreamTotalDeadline(t *testing.T) {
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, "data: {\"choices\":[{\"delta\":{\"content\":\"a\"}}]}\n\n")
		for {
			if _, err := fmt.Fprint(w, ": still here\n"); err != nil {
				return
			}
			w.(http.Flusher).Flush()
			select {
			case <-r.Context().Done():
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
	}))
	defer ts.Close()
	cfg := testConfig(ts.URL)
	cfg.IdleTimeout = time.Second
	cfg.TotalTimeout = 300 * time.Millisecond
	start := time.Now()
	_, err := llm.NewClient(cfg).Stream(context.Background(), []llm.Message{{Role: "user", Content: "x"}}, nil)
	if err == nil || !strings.Contains(err.Error(), "took too long") {
		t.Fatalf("Stream error = %v, want the total deadline", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("Stream took %s", d)
	}
}
