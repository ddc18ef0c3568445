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
	"mime"
	"net/http"
	"net/url"
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
func (c *Client) once(ctx context.Context, reqBody []byte, onDelta func(string)) (text string, retryAfter time.Duration, err error) {
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

	req, err := http.NewRequestWithContext(rctx, http.MethodPost, c.endpoint(), bytes.NewReader(reqBody))
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

	// Every byte that arrives restarts the timer, which from then on
	// measures silence.
	body := bufio.NewReaderSize(&activityReader{r: resp.Body, on: func() {
		streaming.Store(true)
		timer.Reset(c.cfg.IdleTimeout)
	}}, 64<<10)
	if isJSONBody(resp.Header.Get("Content-Type"), body) {
		text, err := decodeCompletion(body, onDelta)
		if err != nil {
			return text, -1, fail("read answer", err)
		}
		return text, -1, nil
	}
	text, err = readStream(body, onDelta)
	if err != nil && errors.Is(err, errRead) {
		return text, -1, fail("read stream", errors.Unwrap(err))
	}
	return text, -1, err
}

// activityReader calls on after every read that returned bytes.
type activityReader struct {
	r  io.Reader
	on func()
}

func (a *activityReader) Read(p []byte) (int, error) {
	n, err := a.r.Read(p)
	if n > 0 {
		a.on()
	}
	return n, err
}

// isJSONBody reports whether the answer is one JSON document rather than an
// event stream: some servers (and proxies) ignore "stream": true and send
// the whole chat.completion at once. The Content-Type says so, or, when it
// says nothing useful, the first byte that is not white space is "{".
func isJSONBody(contentType string, body *bufio.Reader) bool {
	mt, _, _ := mime.ParseMediaType(contentType)
	switch {
	case mt == "text/event-stream":
		return false
	case mt == "application/json" || strings.HasSuffix(mt, "+json"):
		return true
	}
	for {
		b, err := body.Peek(1)
		if err != nil {
			return false
		}
		switch b[0] {
		case ' ', '\t', '\r', '\n':
			_, _ = body.ReadByte()
			continue
		}
		return b[0] == '{'
	}
}

// maxAnswer bounds a non-streamed answer (a summary is a few KB).
const maxAnswer = 16 << 20

// decodeCompletion reads a whole chat.completion body and reports its text
// as one delta.
func decodeCompletion(body io.Reader, onDelta func(string)) (string, error) {
	var resp struct {
		Choices []struct {
			Message struct {
				Content string `json:"content"`
			} `json:"message"`
			Delta struct {
				Content string `json:"content"`
			} `json:"delta"`
		} `json:"choices"`
		Error *struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.NewDecoder(io.LimitReader(body, maxAnswer)).Decode(&resp); err != nil {
		return "", fmt.Errorf("decode answer: %w", err)
	}
	if resp.Error != nil {
		return "", fmt.Errorf("model error: %s", resp.Error.Message)
	}
	var sb strings.Builder
	for _, c := range resp.Choices {
		sb.WriteString(c.Message.Content)
		sb.WriteString(c.Delta.Content)
	}
	if sb.Len() == 0 {
		return "", ErrEmpty
	}
	if onDelta != nil {
		onDelta(sb.String())
	}
	return sb.String(), nil
}

// errRead marks a failure to read the stream (as opposed to what it said).
var errRead = errors.New("read")

// maxLine bounds one line of the event stream.
const maxLine = 16 << 20

// readStream reads server-sent events (lines ended by CRLF, LF or a bare
// CR, as the SSE specification allows), calling onDelta with each piece of
// text, until [DONE] or the end of the body.
func readStream(body io.Reader, onDelta func(string)) (string, error) {
	var sb strings.Builder
	finished := false // a finish_reason arrived
	// end decides what a stream that stopped (at [DONE] or EOF) amounts to.
	end := func(done bool) (string, error) {
		switch {
		case sb.Len() == 0:
			return "", ErrEmpty
		case done || finished:
			return sb.String(), nil
		}
		// Closed cleanly but never said it was done: the answer may be cut.
		return sb.String(), errors.New("stream ended before [DONE]")
	}
	var data []string // data lines of the event being read
	// dispatch handles the event read so far; stop is true at [DONE] or an error.
	dispatch := func() (stop bool, err error) {
		if len(data) == 0 {
			return false, nil
		}
		done, fin, err := decodeEvent(strings.Join(data, "\n"), &sb, onDelta)
		data = data[:0]
		finished = finished || fin
		return done || err != nil, err
	}
	sc := bufio.NewScanner(body)
	sc.Buffer(make([]byte, 0, 64<<10), maxLine)
	sc.Split(scanSSELines)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "data:"):
			data = append(data, strings.TrimPrefix(strings.TrimPrefix(line, "data:"), " "))
		case line == "": // a blank line ends an event
			if stop, err := dispatch(); err != nil {
				return sb.String(), err
			} else if stop {
				return end(true)
			}
		}
		// Comments (":"), "event:", "id:" and "retry:" lines carry nothing we use.
	}
	if err := sc.Err(); err != nil {
		return sb.String(), fmt.Errorf("%w: %w", errRead, err)
	}
	if stop, err := dispatch(); err != nil { // the body ended mid-event
		return sb.String(), err
	} else if stop {
		return end(true)
	}
	return end(false)
}

// scanSSELines is a bufio.SplitFunc for SSE lines: each ends at CRLF, LF
// or CR, and the terminator is not part of the line.
func scanSSELines(data []byte, atEOF bool) (advance int, token []byte, err error) {
	i := bytes.IndexAny(data, "\r\n")
	switch {
	case i < 0 && atEOF && len(data) > 0:
		return len(data), data, nil
	case i < 0:
		return 0, nil, nil
	case data[i] == '\n':
		return i + 1, data[:i], nil
	case i+1 < len(data):
		if data[i+1] == '\n' {
			return i + 2, data[:i], nil
		}
		return i + 1, data[:i], nil
	case atEOF:
		return i + 1, data[:i], nil
	}
	return 0, nil, nil // a CR at the end of what was read: is an LF next?
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

// endpoint is BaseURL + /chat/completions (unless BaseURL already names
// it), with BaseURL's query string kept after the path: Azure-style
// endpoints put the API version there (http://h/v1?api-version=x).
func (c *Client) endpoint() string {
	u, err := url.Parse(c.cfg.BaseURL)
	if err != nil { // Load's caller sent it as is; the request will name the problem
		return strings.TrimRight(c.cfg.BaseURL, "/") + "/chat/completions"
	}
	p := strings.TrimRight(u.Path, "/")
	if !strings.HasSuffix(p, "/chat/completions") {
		p += "/chat/completions"
	}
	u.Path, u.RawPath = p, ""
	return u.String()
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
