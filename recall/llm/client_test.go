package llm_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/recall-dev/recall/recall/llm"
	"github.com/recall-dev/recall/recall/llm/llmtest"
)

func testConfig(url string) llm.Config {
	return llm.Config{BaseURL: url + "/v1", Model: "fake", APIKey: "sk-test-secret",
		FirstByteTimeout: 2 * time.Second, IdleTimeout: 2 * time.Second, MaxRetryWait: 50 * time.Millisecond}
}

func TestStream(t *testing.T) {
	words := llmtest.WordDeltas("The user fixed the docker network [#12].")
	tests := map[string]struct {
		srv       *llmtest.FakeServer
		cfg       func(*llm.Config)
		want      string   // full text on success
		wantErr   string   // substring of the error
		errIs     error    // errors.Is target
		status    int      // *HTTPError status
		requests  int      // requests the server saw (0 = don't check)
		minDeltas []string // deltas that must have arrived (in order) even on failure
	}{
		"deltas in order": {
			srv:  &llmtest.FakeServer{Reply: func(string) []string { return words }},
			want: "The user fixed the docker network [#12].",
		},
		"slow stream within the idle timeout": {
			srv:  &llmtest.FakeServer{Reply: func(string) []string { return words[:3] }, Delay: 60 * time.Millisecond},
			cfg:  func(c *llm.Config) { c.IdleTimeout = time.Second },
			want: "The user fixed",
		},
		"stalled stream hits the idle timeout": {
			srv:     &llmtest.FakeServer{Reply: func(string) []string { return words }, Delay: 400 * time.Millisecond},
			cfg:     func(c *llm.Config) { c.IdleTimeout = 100 * time.Millisecond; c.FirstByteTimeout = 2 * time.Second },
			wantErr: "stream stalled",
		},
		"server that never answers hits the first-byte timeout": {
			srv:     &llmtest.FakeServer{Hang: true},
			cfg:     func(c *llm.Config) { c.FirstByteTimeout = 150 * time.Millisecond },
			wantErr: "no response within 150ms",
		},
		"500 names the status and the server's message": {
			srv:      &llmtest.FakeServer{Status: 500},
			wantErr:  "http 500 Internal Server Error: fake failure 500",
			status:   500,
			requests: 1,
		},
		"429 is retried after Retry-After, then succeeds": {
			srv:      &llmtest.FakeServer{Status: 429, RetryAfter: "0", FailFirst: 1, Reply: func(string) []string { return words[:2] }},
			want:     "The user",
			requests: 2,
		},
		"429 retries are bounded": {
			srv:      &llmtest.FakeServer{Status: 429, RetryAfter: "0"},
			cfg:      func(c *llm.Config) { c.MaxRetries = 2 },
			status:   429,
			wantErr:  "http 429",
			requests: 3,
		},
		"a model that streams nothing is a failure": {
			srv:   &llmtest.FakeServer{Reply: func(string) []string { return nil }},
			errIs: llm.ErrEmpty,
		},
		"a server that ignores stream:true answers one JSON body": {
			srv:  &llmtest.FakeServer{NoStream: true, Reply: func(string) []string { return words }},
			want: "The user fixed the docker network [#12].",
		},
		"bare CR line endings": {
			srv:  &llmtest.FakeServer{LineEnd: "\r", Reply: func(string) []string { return words }},
			want: "The user fixed the docker network [#12].",
		},
		"CRLF line endings": {
			srv:  &llmtest.FakeServer{LineEnd: "\r\n", Reply: func(string) []string { return words }},
			want: "The user fixed the docker network [#12].",
		},
		"mid-stream disconnect keeps the deltas and fails": {
			srv:       &llmtest.FakeServer{Reply: func(string) []string { return words }, CutAfter: 2},
			wantErr:   "read stream",
			minDeltas: words[:2],
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			srv := tc.srv
			ts := httptest.NewServer(srv)
			defer ts.Close()
			cfg := testConfig(ts.URL)
			if tc.cfg != nil {
				tc.cfg(&cfg)
			}
			var got []string
			text, err := llm.NewClient(cfg).Stream(context.Background(),
				[]llm.Message{{Role: "user", Content: "summarize"}}, func(d string) { got = append(got, d) })
			for i, d := range tc.minDeltas {
				if i >= len(got) || got[i] != d {
					t.Fatalf("deltas %q, want a prefix %q", got, tc.minDeltas)
				}
			}
			if tc.requests != 0 && srv.Requests() != tc.requests {
				t.Errorf("server saw %d requests, want %d", srv.Requests(), tc.requests)
			}
			if tc.want != "" {
				if err != nil {
					t.Fatalf("Stream: %v", err)
				}
				if text != tc.want || strings.Join(got, "") != tc.want {
					t.Fatalf("text %q, deltas %q; want %q", text, got, tc.want)
				}
				return
			}
			if err == nil {
				t.Fatalf("Stream succeeded with %q, want an error", text)
			}
			if tc.wantErr != "" && !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("error %q, want it to contain %q", err, tc.wantErr)
			}
			if tc.errIs != nil && !errors.Is(err, tc.errIs) {
				t.Errorf("error %v, want %v", err, tc.errIs)
			}
			var herr *llm.HTTPError
			if tc.status != 0 && (!errors.As(err, &herr) || herr.Status != tc.status) {
				t.Errorf("error %v, want HTTP status %d", err, tc.status)
			}
			if strings.Contains(err.Error(), "sk-test-secret") {
				t.Errorf("error leaks the API key: %v", err)
			}
		})
	}
}

func TestStreamCancelStopsAtOnce(t *testing.T) {
	srv := &llmtest.FakeServer{Reply: func(string) []string { return llmtest.WordDeltas("one two three four five six") },
		Delay: 300 * time.Millisecond}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	ctx, cancel := context.WithCancel(context.Background())
	first := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		_, err := llm.NewClient(testConfig(ts.URL)).Stream(ctx, []llm.Message{{Role: "user", Content: "x"}}, func(string) {
			select {
			case <-first:
			default:
				close(first)
			}
		})
		done <- err
	}()
	<-first
	began := time.Now()
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("error %v, want context.Canceled", err)
		}
		if waited := time.Since(began); waited > 250*time.Millisecond {
			t.Errorf("Stream returned %s after cancel, want at once", waited)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("Stream did not return after cancel")
	}
	deadline := time.Now().Add(2 * time.Second)
	for srv.Canceled() == 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if srv.Canceled() == 0 {
		t.Error("the server never saw the request go away")
	}
}

func TestStreamCancelDuringRetryWait(t *testing.T) {
	srv := &llmtest.FakeServer{Status: 429, RetryAfter: "30"}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	cfg := testConfig(ts.URL)
	cfg.MaxRetryWait = time.Minute
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	began := time.Now()
	_, err := llm.NewClient(cfg).Stream(ctx, []llm.Message{{Role: "user", Content: "x"}}, nil)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("error %v, want the context's", err)
	}
	if time.Since(began) > time.Second {
		t.Errorf("waited out Retry-After despite cancellation")
	}
}

func TestStreamProtocolDetails(t *testing.T) {
	tests := map[string]struct {
		body        string
		parts       []string // written and flushed one by one instead of body
		contentType string   // default text/event-stream; "-" sets none
		want        string
		wantErr     string
	}{
		"comments, event lines and CRLF are ignored": {
			body: ": keep-alive\r\nevent: message\r\ndata: {\"choices\":[{\"delta\":{\"content\":\"a\"}}]}\r\n\r\n" +
				"data: {\"choices\":[{\"delta\":{\"content\":\"b\"}}]}\n\ndata: [DONE]\n\n",
			want: "ab",
		},
		"no space after data:": {
			body: "data:{\"choices\":[{\"delta\":{\"content\":\"x\"}}]}\n\ndata:[DONE]\n\n",
			want: "x",
		},
		"closed after finish_reason without [DONE] is complete": {
			body: "data: {\"choices\":[{\"delta\":{\"content\":\"done\"},\"finish_reason\":\"stop\"}]}\n\n",
			want: "done",
		},
		"closed without finish_reason or [DONE] is cut": {
			body:    "data: {\"choices\":[{\"delta\":{\"content\":\"half\"}}]}\n\n",
			wantErr: "stream ended before [DONE]",
		},
		"error event": {
			body:    "data: {\"error\":{\"message\":\"model overloaded\"}}\n\n",
			wantErr: "model error: model overloaded",
		},
		"garbage chunk": {
			body:    "data: {not json\n\n",
			wantErr: "decode stream chunk",
		},
		"only [DONE]": {
			body:    "data: [DONE]\n\n",
			wantErr: "no text",
		},
		"bare CR ends every line": {
			body: ": hi\rdata: {\"choices\":[{\"delta\":{\"content\":\"a\"}}]}\r\rdata: {\"choices\":[{\"delta\":{\"content\":\"b\"}}]}\r\rdata: [DONE]\r\r",
			want: "ab",
		},
		"mixed endings, CR LF split across writes": {
			parts: []string{"data: {\"choices\":[{\"delta\":{\"content\":\"a\"}}]}\r", "\n\r\n", "data: {\"choices\":[{\"delta\":{\"content\":\"b\"}}]}\r", "\r", "data: [DONE]\n\n"},
			want:  "ab",
		},
		"multi-line data joins with a newline": {
			body: "data: {\"choices\":[{\"delta\":\rdata: {\"content\":\"x\"}}]}\r\rdata: [DONE]\r\r",
			want: "x",
		},
		"a JSON body labelled as JSON": {
			contentType: "application/json",
			body:        `{"id":"c1","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"whole answer"},"finish_reason":"stop"}]}`,
			want:        "whole answer",
		},
		"a JSON body with no useful Content-Type": {
			contentType: "-",
			body:        "\n  " + `{"choices":[{"message":{"content":"sniffed"}}]}`,
			want:        "sniffed",
		},
		"a JSON error body with status 200": {
			contentType: "application/json",
			body:        `{"error":{"message":"context length exceeded"}}`,
			wantErr:     "model error: context length exceeded",
		},
		"an empty JSON answer": {
			contentType: "application/json",
			body:        `{"choices":[{"message":{"content":""}}]}`,
			wantErr:     "no text",
		},
		"a JSON body cut short": {
			contentType: "application/json",
			body:        `{"choices":[{"message":{"content":"hal`,
			wantErr:     "read answer: decode answer",
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				switch tc.contentType {
				case "":
					w.Header().Set("Content-Type", "text/event-stream")
				case "-":
					w.Header()["Content-Type"] = nil // no header at all, no sniffing
				default:
					w.Header().Set("Content-Type", tc.contentType)
				}
				if tc.parts == nil {
					_, _ = w.Write([]byte(tc.body))
					return
				}
				for _, p := range tc.parts {
					_, _ = w.Write([]byte(p))
					w.(http.Flusher).Flush()
					time.Sleep(20 * time.Millisecond)
				}
			}))
			defer ts.Close()
			text, err := llm.NewClient(testConfig(ts.URL)).Stream(context.Background(), []llm.Message{{Role: "user", Content: "x"}}, nil)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil || text != tc.want {
				t.Fatalf("got %q, %v; want %q", text, err, tc.want)
			}
		})
	}
}

func TestStreamSendsKeyButNeverReportsIt(t *testing.T) {
	var gotAuth, gotPath string
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gotAuth, gotPath = r.Header.Get("Authorization"), r.URL.Path
		// A misbehaving proxy that echoes the credentials.
		http.Error(w, `{"error":{"message":"invalid key `+strings.TrimPrefix(gotAuth, "Bearer ")+`"}}`, http.StatusUnauthorized)
	}))
	defer ts.Close()
	_, err := llm.NewClient(testConfig(ts.URL)).Stream(context.Background(), []llm.Message{{Role: "user", Content: "x"}}, nil)
	if gotAuth != "Bearer sk-test-secret" || gotPath != "/v1/chat/completions" {
		t.Fatalf("request had Authorization %q at %q", gotAuth, gotPath)
	}
	if err == nil || strings.Contains(err.Error(), "sk-test-secret") || !strings.Contains(err.Error(), "401") {
		t.Fatalf("error %v: want a 401 without the key", err)
	}
	if s := testConfig(ts.URL).String(); strings.Contains(s, "sk-test-secret") {
		t.Fatalf("Config.String leaks the key: %s", s)
	}
}

// A base URL's query string (Azure's api-version) stays after the path.
func TestEndpointKeepsTheQueryString(t *testing.T) {
	for base, want := range map[string]string{
		"/v1?api-version=2024-06-01":             "/v1/chat/completions?api-version=2024-06-01",
		"/v1/?api-version=x&deployment=y":        "/v1/chat/completions?api-version=x&deployment=y",
		"/openai/chat/completions?api-version=x": "/openai/chat/completions?api-version=x",
		"/v1":                                    "/v1/chat/completions",
		"":                                       "/chat/completions",
	} {
		var got string
		ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			got = r.URL.RequestURI()
			w.Header().Set("Content-Type", "text/event-stream")
			_, _ = w.Write([]byte("data: {\"choices\":[{\"delta\":{\"content\":\"ok\"},\"finish_reason\":\"stop\"}]}\n\n"))
		}))
		cfg := testConfig(ts.URL)
		cfg.BaseURL = ts.URL + base
		if _, err := llm.NewClient(cfg).Stream(context.Background(), []llm.Message{{Role: "user", Content: "x"}}, nil); err != nil {
			t.Errorf("%s: %v", base, err)
		}
		if got != want {
			t.Errorf("base %q: request went to %q, want %q", base, got, want)
		}
		ts.Close()
	}
}
