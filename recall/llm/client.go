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
	"unicode/utf8"
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
	// No http.Client.Timeout: Stream puts its own first-byte, idle and
	// total deadlines on each summary.
	return &Client{cfg: cfg.withDefaults(), hc: &http.Client{CheckRedirect: dropCredentialsOffOrigin}}
}

// dropCredentialsOffOrigin is the client's redirect policy: the API key
// follows a redirect only to the same scheme, host and port as the first
// request. net/http already drops it for another host but keeps it for
// another port of the same host, which curl counts as a leak
// (CVE-2022-27776): another port can be another program.
func dropCredentialsOffOrigin(req *http.Request, via []*http.Request) error {
	if len(via) >= 10 {
		return errors.New("stopped after 10 redirects")
	}
	if !sameOrigin(req.URL, via[0].URL) {
		req.Header.Del("Authorization")
		req.Header.Del("Api-Key") // Azure's header, should a caller set it
	}
	return nil
}

// sameOrigin reports whether a and b have the same scheme, host and port
// (the port implied by the scheme when none is written).
func sameOrigin(a, b *url.URL) bool {
	return strings.EqualFold(a.Scheme, b.Scheme) &&
		strings.EqualFold(a.Hostname(), b.Hostname()) &&
		portOf(a) == portOf(b)
}

func portOf(u *url.URL) string {
	if p := u.Port(); p != "" {
		return p
	}
	if strings.EqualFold(u.Scheme, "https") {
		return "443"
	}
	return "80"
}

// BytesPerToken is how many bytes of answer one asked-for token may bring:
// a token is about 4 bytes of English and rarely more than 16 of anything.
// A stream longer than MaxTokens*BytesPerToken is read no further.
const BytesPerToken = 16

// maxBytes is the most answer text Stream keeps.
func (c *Client) maxBytes() int { return c.cfg.MaxTokens * BytesPerToken }

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

// errFirstByte, errIdle and errTotal are the causes the timers cancel a
// request with.
var (
	errFirstByte = errors.New("no response")
	errIdle      = errors.New("stream stalled")
	errTotal     = errors.New("summary took too long")
)

// Stream sends msgs and calls onDelta with each piece of text as it
// arrives, in order, from the calling goroutine. It returns the whole text,
// cut at MaxTokens*BytesPerToken bytes (the stream is closed there).
// A 429 is retried up to MaxRetries times after its Retry-After; every
// other failure returns at once with an error naming it. The whole call
// takes at most TotalTimeout. Cancelling ctx aborts the request
// immediately and returns ctx's error.
func (c *Client) Stream(ctx context.Context, msgs []Message, onDelta func(string)) (string, error) {
	tctx, cancel := context.WithTimeoutCause(ctx, c.cfg.TotalTimeout, errTotal)
	defer cancel()
	text, err := c.stream(tctx, msgs, onDelta)
	if err != nil && ctx.Err() == nil && context.Cause(tctx) == errTotal {
		return text, fmt.Errorf("%w: stopped after %s (timeout_seconds)", errTotal, c.cfg.TotalTimeout)
	}
	return text, err
}

func (c *Client) stream(ctx context.Context, msgs []Message, onDelta func(string)) (string, error) {
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
			return "", context.Cause(ctx)
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
			return context.Cause(ctx)
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
		text, err := decodeCompletion(body, c.maxBytes(), onDelta)
		if err != nil {
			return text, -1, fail("read answer", err)
		}
		return text, -1, nil
	}
	text, err = readStream(body, c.maxBytes(), onDelta)
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

// jsonOverhead is how much larger than its text a JSON answer may be:
// escapes (\u0000 is 6 bytes for one) and the envelope.
func jsonOverhead(limit int) int { return 6*limit + 64<<10 }

// decodeCompletion reads a whole chat.completion body and reports its text,
// cut at limit bytes, as one delta.
func decodeCompletion(body io.Reader, limit int, onDelta func(string)) (string, error) {
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
	bound := jsonOverhead(limit)
	raw, err := io.ReadAll(io.LimitReader(body, int64(bound)+1))
	if err != nil {
		return "", err
	}
	if len(raw) > bound {
		return "", fmt.Errorf("answer larger than %d bytes, far more than max_tokens asked for", bound)
	}
	if err := json.Unmarshal(raw, &resp); err != nil {
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
	text := clipBytes(sb.String(), limit)
	if onDelta != nil {
		onDelta(text)
	}
	return text, nil
}

// clipBytes cuts s to at most n bytes, at a character boundary.
func clipBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// errRead marks a failure to read the stream (as opposed to what it said).
var errRead = errors.New("read")

// maxLine bounds one line of the event stream.
const maxLine = 16 << 20

// errFull stops reading a stream whose text reached its limit.
var errFull = errors.New("answer reached its size limit")

// readStream reads server-sent events (lines ended by CRLF, LF or a bare
// CR, as the SSE specification allows), calling onDelta with each piece of
// text, until [DONE], the end of the body, or limit bytes of text (then
// the text is cut there and the rest is never read).
func readStream(body io.Reader, limit int, onDelta func(string)) (string, error) {
	sb := &cappedBuilder{limit: limit}
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
		done, fin, err := decodeEvent(strings.Join(data, "\n"), sb, onDelta)
		data = data[:0]
		finished = finished || fin
		return done || err != nil, err
	}
	pending := 0 // bytes of data lines held for the event being read
	sc := bufio.NewScanner(body)
	sc.Buffer(make([]byte, 0, 64<<10), min(maxLine, jsonOverhead(limit)))
	sc.Split(scanSSELines)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "data:"):
			data = append(data, strings.TrimPrefix(strings.TrimPrefix(line, "data:"), " "))
			// An event made of many data lines and no blank line would
			// otherwise grow without bound.
			if pending += len(line); pending > jsonOverhead(limit) {
				return sb.String(), errors.New("stream event larger than the answer asked for")
			}
		case line == "": // a blank line ends an event
			pending = 0
			if stop, err := dispatch(); errors.Is(err, errFull) {
				return sb.String(), nil
			} else if err != nil {
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
	if stop, err := dispatch(); errors.Is(err, errFull) {
		return sb.String(), nil
	} else if err != nil { // the body ended mid-event
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
// It returns errFull once sb is full.
func decodeEvent(payload string, sb *cappedBuilder, onDelta func(string)) (done, finished bool, err error) {
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
			piece, full := sb.add(c.Delta.Content)
			if piece != "" && onDelta != nil {
				onDelta(piece)
			}
			if full {
				return false, true, errFull
			}
		}
		if c.FinishReason != nil && *c.FinishReason != "" {
			finished = true
		}
	}
	return false, finished, nil
}

// cappedBuilder collects the answer's text up to limit bytes.
type cappedBuilder struct {
	strings.Builder
	limit int
}

// add appends what of s fits and returns it; full is true once the limit
// is reached.
func (b *cappedBuilder) add(s string) (piece string, full bool) {
	piece = clipBytes(s, b.limit-b.Len())
	b.WriteString(piece)
	return piece, len(piece) < len(s) || b.Len() >= b.limit
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
