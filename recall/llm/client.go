// Package llm streams chat completions from any OpenAI-compatible endpoint
// (Ollama, llama.cpp's server, vLLM, LM Studio, OpenRouter, Gemini's
// OpenAI-compatible endpoint, OpenAI itself) with "stream": true.
//
// Why not github.com/openai/openai-go: a probe found it handles these
// streams, but it adds ~26 MB to the binary and ~70 s to a cold build, for
// one request shape. Server-sent events over net/http take ~100 lines here
// (a POST, a line reader, "data:" payloads, "[DONE]"), and owning them lets
// us put the timeouts where streaming needs them: one for the first byte (a
// local model may read a long prompt for a while) and one for silence
// between chunks, instead of a single deadline for the whole answer.
package llm

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

// Message is one chat message of the request.
type Message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// Client streams completions for one Config. It is safe for concurrent use.
type Client struct {
	cfg Config
	hc  *http.Client
}

// NewClient returns a client for cfg (zero fields take their defaults).
func NewClient(cfg Config) *Client {
	// No http.Client.Timeout: it would bound the whole streamed answer. The
	// first-byte and idle timers in Stream bound what matters.
	return &Client{cfg: cfg.withDefaults(), hc: &http.Client{}}
}

// ErrEmpty is returned when the model finished without streaming any text.
var ErrEmpty = errors.New("model returned no text")

// HTTPError is a non-2xx answer from the endpoint.
type HTTPError struct {
	Status  int
	Message string // the server's error message, if it sent one
}

func (e *HTTPError) Error() string {
	s := fmt.Sprintf("http %d %s", e.Status, http.StatusText(e.Status))
	if e.Message != "" {
		s += ": " + e.Message
	}
	return s
}

// errFirstByte and errIdle are the causes the timers cancel a request with.
var (
	errFirstByte = errors.New("no response")
	errIdle      = errors.New("stream stalled")
)

// Stream sends msgs and calls onDelta with each piece of text as it
// arrives, in order, from the calling goroutine. It returns the whole text.
// A 429 is retried up to MaxRetries times after its Retry-After; every
// other failure returns at once with an error naming it. Cancelling ctx
// aborts the request immediately and returns ctx's error.
func (c *Client) Stream(ctx context.Context, msgs []Message, onDelta func(string)) (string, error) {
	body, err := json.Marshal(map[string]any{
		"model":       c.cfg.Model,
		"messages":    msgs,
		"stream":      true,
		"temperature": c.cfg.Temperature,
		"max_tokens":  c.cfg.MaxTokens,
	})
	if err != nil {
		return "", fmt.Errorf("encode request: %w", err)
	}
	for attempt := 0; ; attempt++ {
		text, retryAfter, err := c.once(ctx, body, onDelta)
		if retryAfter < 0 || attempt >= c.cfg.MaxRetries {
			return text, c.redact(err)
		}
		t := time.NewTimer(min(retryAfter, c.cfg.MaxRetryWait))
		select {
		case <-ctx.Done():
			t.Stop()
			return "", ctx.Err()
		case <-t.C:
		}
	}
}

// once makes one request. retryAfter >= 0 means "rate limited, retry after".
func (c *Client) once(ctx context.Context, body []byte, onDelta func(string)) (text string, retryAfter time.Duration, err error) {
	rctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	var streaming atomic.Bool // a first line arrived: the timer now measures silence
	timer := time.AfterFunc(c.cfg.FirstByteTimeout, func() {
		if streaming.Load() {
			cancel(errIdle)
		} else {
			cancel(errFirstByte)
		}
	})
	defer timer.Stop()
	// fail names the timer's cause when it fired, else the caller's
	// cancellation, else the error itself.
	fail := func(what string, err error) error {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		switch cause := context.Cause(rctx); cause {
		case errFirstByte:
			return fmt.Errorf("%w within %s", errFirstByte, c.cfg.FirstByteTimeout)
		case errIdle:
			return fmt.Errorf("%w: nothing for %s", errIdle, c.cfg.IdleTimeout)
		}
		return fmt.Errorf("%s: %w", what, err)
	}

	req, err := http.NewRequestWithContext(rctx, http.MethodPost, c.endpoint(), bytes.NewReader(body))
	if err != nil {
		return "", -1, fmt.Errorf("build request: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "text/event-stream")
	if c.cfg.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+c.cfg.APIKey)
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return "", -1, fail("send request", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		herr := &HTTPError{Status: resp.StatusCode, Message: errorMessage(resp.Body)}
		if resp.StatusCode == http.StatusTooManyRequests {
			return "", retryDelay(resp.Header.Get("Retry-After")), herr
		}
		return "", -1, herr
	}

	var sb strings.Builder
	finished := false // a finish_reason arrived
	// end decides what a stream that stopped (at [DONE] or EOF) amounts to.
	end := func(done bool) (string, time.Duration, error) {
		switch {
		case sb.Len() == 0:
			return "", -1, ErrEmpty
		case done || finished:
			return sb.String(), -1, nil
		}
		// Closed cleanly but never said it was done: the answer may be cut.
		return sb.String(), -1, errors.New("stream ended before [DONE]")
	}
	r := bufio.NewReaderSize(resp.Body, 64<<10)
	var data []string // data lines of the event being read
	for {
		line, rerr := r.ReadString('\n')
		if rerr != nil && rerr != io.EOF {
			return sb.String(), -1, fail("read stream", rerr)
		}
		if line != "" {
			streaming.Store(true)
			timer.Reset(c.cfg.IdleTimeout)
		}
		line = strings.TrimRight(line, "\r\n")
		if strings.HasPrefix(line, "data:") {
			data = append(data, strings.TrimPrefix(strings.TrimPrefix(line, "data:"), " "))
		}
		// Comments (":"), "event:", "id:" and "retry:" lines carry nothing we use.
		if (line == "" || rerr == io.EOF) && len(data) > 0 { // a blank line ends an event
			done, fin, err := decodeEvent(strings.Join(data, "\n"), &sb, onDelta)
			data = data[:0]
			finished = finished || fin
			if err != nil {
				return sb.String(), -1, err
			}
			if done {
				return end(true)
			}
		}
		if rerr == io.EOF {
			return end(false)
		}
	}
}

// chunk is the part of a chat.completion.chunk (or an error event) we read.
type chunk struct {
	Choices []struct {
		Delta struct {
			Content string `json:"content"`
		} `json:"delta"`
		FinishReason *string `json:"finish_reason"`
	} `json:"choices"`
	Error *struct {
		Message string `json:"message"`
	} `json:"error"`
}

// decodeEvent handles one SSE payload: appends and reports its text. done
// is [DONE]; finished is a finish_reason, which is not yet the end (usage
// chunks and [DONE] may follow) but makes a close without [DONE] complete.
func decodeEvent(payload string, sb *strings.Builder, onDelta func(string)) (done, finished bool, err error) {
	if strings.TrimSpace(payload) == "[DONE]" {
		return true, false, nil
	}
	var ch chunk
	if err := json.Unmarshal([]byte(payload), &ch); err != nil {
		return false, false, fmt.Errorf("decode stream chunk: %w", err)
	}
	if ch.Error != nil {
		return false, false, fmt.Errorf("model error: %s", ch.Error.Message)
	}
	for _, c := range ch.Choices {
		if c.Delta.Content != "" {
			sb.WriteString(c.Delta.Content)
			if onDelta != nil {
				onDelta(c.Delta.Content)
			}
		}
		if c.FinishReason != nil && *c.FinishReason != "" {
			finished = true
		}
	}
	return false, finished, nil
}

// endpoint is BaseURL + /chat/completions (unless BaseURL already names it).
func (c *Client) endpoint() string {
	u := strings.TrimRight(c.cfg.BaseURL, "/")
	if strings.HasSuffix(u, "/chat/completions") {
		return u
	}
	return u + "/chat/completions"
}

// redact removes the API key from an error message, in case a server or
// proxy echoed it back.
func (c *Client) redact(err error) error {
	if err == nil || c.cfg.APIKey == "" || !strings.Contains(err.Error(), c.cfg.APIKey) {
		return err
	}
	return errors.New(strings.ReplaceAll(err.Error(), c.cfg.APIKey, "[redacted]"))
}

// errorMessage reads the server's error message from an error body
// (OpenAI's {"error":{"message":...}}, else the first line of text).
func errorMessage(body io.Reader) string {
	raw, _ := io.ReadAll(io.LimitReader(body, 4<<10))
	var e struct {
		Error json.RawMessage `json:"error"`
	}
	if json.Unmarshal(raw, &e) == nil && len(e.Error) > 0 {
		var obj struct {
			Message string `json:"message"`
		}
		if json.Unmarshal(e.Error, &obj) == nil && obj.Message != "" {
			return clip(obj.Message, 300)
		}
		var s string
		if json.Unmarshal(e.Error, &s) == nil {
			return clip(s, 300)
		}
	}
	line, _, _ := strings.Cut(strings.TrimSpace(string(raw)), "\n")
	return clip(line, 300)
}

func clip(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "..."
	}
	return s
}

// retryDelay parses Retry-After (seconds or an HTTP date); 1 s when absent.
func retryDelay(h string) time.Duration {
	h = strings.TrimSpace(h)
	if secs, err := strconv.ParseFloat(h, 64); err == nil && secs >= 0 {
		return time.Duration(secs * float64(time.Second))
	}
	if t, err := http.ParseTime(h); err == nil {
		return max(0, time.Until(t))
	}
	return time.Second
}
