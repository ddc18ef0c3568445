// Package llmtest is a fake OpenAI-compatible streaming endpoint for tests,
// like net/http/httptest: it serves real HTTP with real SSE framing, and can
// be slow, fail, rate-limit, hang or drop the connection on demand.
package llmtest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// FakeServer is an http.Handler that speaks the OpenAI streaming protocol
// (SSE "data:" chunks with choices[0].delta.content, then "data: [DONE]"),
// for tests of this package and of its callers: run it under
// httptest.NewServer. It records how many requests were in flight at once.
type FakeServer struct {
	// Reply returns the deltas to stream for a request's last message; nil
	// streams the single delta "ok".
	Reply func(prompt string) []string
	// Delay is slept before each delta (a slow model).
	Delay time.Duration
	// Status, when not 0 or 200, is answered instead of a stream, with an
	// OpenAI-style error body. RetryAfter sets the Retry-After header.
	Status     int
	RetryAfter string
	// FailFirst answers the first FailFirst requests with Status; later ones stream.
	FailFirst int
	// FailIf, when set, limits Status to the requests whose last message it accepts.
	FailIf func(prompt string) bool
	// CutAfter, when > 0, drops the connection after that many deltas.
	CutAfter int
	// Hang makes the server never answer (until the client goes away).
	Hang bool
	// NoStream answers like a server that ignores "stream": true: one
	// chat.completion JSON body (Content-Type application/json) holding the
	// whole reply.
	NoStream bool
	// LineEnd ends every line of the stream ("\n" when empty; "\r\n" and a
	// bare "\r" are the other endings SSE allows).
	LineEnd string

	requests atomic.Int64
	inFlight atomic.Int64
	mu       sync.Mutex
	maxSeen  int64
	bodies   []string
	canceled atomic.Int64
}

// Bodies returns every request body received, as sent: what left the
// client for the model (the secrets tests read them).
func (s *FakeServer) Bodies() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.bodies...)
}

// Requests returns how many requests arrived.
func (s *FakeServer) Requests() int { return int(s.requests.Load()) }

// MaxInFlight returns the most requests that were being answered at once.
func (s *FakeServer) MaxInFlight() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return int(s.maxSeen)
}

// Canceled returns how many requests the client abandoned mid-answer.
func (s *FakeServer) Canceled() int { return int(s.canceled.Load()) }

// ServeHTTP implements http.Handler.
func (s *FakeServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	n := s.requests.Add(1)
	cur := s.inFlight.Add(1)
	// A request stops counting as in flight just before its last line is
	// written: the client is done when it reads that line, and may start the
	// next request while this handler is still returning.
	leave := sync.OnceFunc(func() { s.inFlight.Add(-1) })
	defer leave()
	s.mu.Lock()
	s.maxSeen = max(s.maxSeen, cur)
	s.mu.Unlock()

	var req struct {
		Model    string `json:"model"`
		Messages []struct {
			Role    string `json:"role"`
			Content string `json:"content"`
		} `json:"messages"`
		Stream bool `json:"stream"`
	}
	body, err := io.ReadAll(r.Body)
	s.mu.Lock()
	s.bodies = append(s.bodies, string(body))
	s.mu.Unlock()
	if err != nil || json.Unmarshal(body, &req) != nil || !req.Stream || len(req.Messages) == 0 {
		http.Error(w, `{"error":{"message":"bad request: want stream:true and messages"}}`, http.StatusBadRequest)
		return
	}
	if s.Hang {
		<-r.Context().Done()
		s.canceled.Add(1)
		return
	}
	prompt := req.Messages[len(req.Messages)-1].Content
	if s.Status != 0 && s.Status != http.StatusOK && (s.FailFirst == 0 || int(n) <= s.FailFirst) &&
		(s.FailIf == nil || s.FailIf(prompt)) {
		if s.RetryAfter != "" {
			w.Header().Set("Retry-After", s.RetryAfter)
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(s.Status)
		fmt.Fprintf(w, `{"error":{"message":"fake failure %d"}}`, s.Status)
		return
	}
	deltas := []string{"ok"}
	if s.Reply != nil {
		deltas = s.Reply(prompt)
	}
	if s.NoStream {
		time.Sleep(s.Delay)
		w.Header().Set("Content-Type", "application/json")
		leave()
		_ = json.NewEncoder(w).Encode(map[string]any{
			"object": "chat.completion",
			"choices": []any{map[string]any{"index": 0, "finish_reason": "stop",
				"message": map[string]string{"role": "assistant", "content": strings.Join(deltas, "")}}},
		})
		return
	}
	nl := s.LineEnd
	if nl == "" {
		nl = "\n"
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	flush := func() {
		if f, ok := w.(http.Flusher); ok {
			f.Flush()
		}
	}
	flush()
	for i, d := range deltas {
		if s.CutAfter > 0 && i == s.CutAfter {
			if hj, ok := w.(http.Hijacker); ok {
				if conn, _, err := hj.Hijack(); err == nil {
					conn.Close()
				}
			}
			return
		}
		select {
		case <-time.After(s.Delay):
		case <-r.Context().Done():
			s.canceled.Add(1)
			return
		}
		chunk, _ := json.Marshal(map[string]any{
			"object":  "chat.completion.chunk",
			"choices": []any{map[string]any{"index": 0, "delta": map[string]string{"content": d}}},
		})
		fmt.Fprintf(w, "data: %s%s%s", chunk, nl, nl)
		flush()
	}
	leave()
	fmt.Fprintf(w, "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}%s%s", nl, nl)
	fmt.Fprintf(w, "data: [DONE]%s%s", nl, nl)
	flush()
}

// WordDeltas splits text into word-sized deltas (keeping the spaces), a
// convenient Reply for tests.
func WordDeltas(text string) []string {
	var out []string
	start := 0
	for i := 1; i <= len(text); i++ {
		if i == len(text) || text[i] == ' ' {
			out = append(out, text[start:i])
			start = i
		}
	}
	return out
}
