package recall

import (
	"context"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/recall-dev/recall/recall/llm"
	"github.com/recall-dev/recall/recall/llm/llmtest"
)

// broadQuery finds five of the fixture's lineages.
const broadQuery = "docker OR kafka OR 数据库迁移 OR network OR rebalancing"

// discoverAll returns the fixture's results for broadQuery.
func discoverAll(t *testing.T, e *Engine) []Result {
	t.Helper()
	d, err := e.Discover(context.Background(), broadQuery, DiscoverOptions{Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Results) < 5 {
		t.Fatalf("fixture gave %d results, want 5", len(d.Results))
	}
	return d.Results
}

// modelEngine returns an engine whose model is srv.
func modelEngine(t *testing.T, f *fixture, srv *llmtest.FakeServer, concurrency int, tune func(*llm.Config)) *Engine {
	t.Helper()
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	cfg := &llm.Config{BaseURL: ts.URL + "/v1", Model: "fake", FirstByteTimeout: 2 * time.Second,
		IdleTimeout: 2 * time.Second, MaxRetryWait: 20 * time.Millisecond}
	if tune != nil {
		tune(cfg)
	}
	return New(f.st, Options{Concurrency: concurrency, LLM: cfg})
}

// recorder collects SummaryEvents from several goroutines.
type recorder struct {
	mu     sync.Mutex
	deltas map[int][]string
	done   map[int]*Summary
	order  []string // "d<index>" / "D<index>", to check Done comes last
}

func newRecorder() *recorder { return &recorder{deltas: map[int][]string{}, done: map[int]*Summary{}} }

func (r *recorder) on(ev SummaryEvent) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if ev.Done {
		r.done[ev.Index] = ev.Summary
		r.order = append(r.order, "D"+string(rune('0'+ev.Index)))
		return
	}
	if r.done[ev.Index] != nil {
		r.order = append(r.order, "late delta for "+string(rune('0'+ev.Index)))
	}
	r.deltas[ev.Index] = append(r.deltas[ev.Index], ev.Delta)
}

func TestSummarizeStreamsUnderTheSemaphore(t *testing.T) {
	f := openFixture(t)
	var mu sync.Mutex
	var prompts []string
	srv := &llmtest.FakeServer{Delay: 15 * time.Millisecond, Reply: func(p string) []string {
		mu.Lock()
		prompts = append(prompts, p)
		mu.Unlock()
		return llmtest.WordDeltas("The user fixed it [#1]. Then it worked.")
	}}
	e := modelEngine(t, f, srv, 2, nil)
	results := discoverAll(t, e)
	rec := newRecorder()
	sums := e.Summarize(context.Background(), broadQuery, results, rec.on)

	if got := srv.MaxInFlight(); got != 2 {
		t.Errorf("server saw %d requests in flight at most, want exactly the limit 2", got)
	}
	if srv.Requests() != len(results) {
		t.Errorf("server saw %d requests for %d results", srv.Requests(), len(results))
	}
	for i, s := range sums {
		if s.Kind != SummaryModel || s.Model != "fake" || s.SessionID != results[i].SessionID {
			t.Errorf("summary %d: %+v", i, s)
		}
		if joined := strings.Join(rec.deltas[i], ""); joined != s.Text || s.Text != "The user fixed it [#1]. Then it worked." {
			t.Errorf("summary %d: deltas %q joined %q, final %q", i, rec.deltas[i], joined, s.Text)
		}
		if rec.done[i] == nil || rec.done[i].Text != s.Text {
			t.Errorf("summary %d: Done event %+v", i, rec.done[i])
		}
	}
	for _, o := range rec.order {
		if strings.HasPrefix(o, "late") {
			t.Errorf("%s after its Done event", o)
		}
	}
	// The transcript the model read cites message ids.
	found := false
	for _, p := range prompts {
		if strings.Contains(p, "Search topic: "+broadQuery) && strings.Contains(p, " [USER]: ") && strings.Contains(p, "\n#") {
			found = true
		}
	}
	if !found {
		t.Errorf("no prompt carried an id-prefixed transcript; first: %.300q", prompts[0])
	}
	if !strings.Contains(systemPrompt, "[#123]") || !strings.Contains(systemPrompt, "Write in past tense as a factual recap.") {
		t.Error("system prompt lost Hermes's text or the citation rule")
	}
}

func TestSummarizeFallbacks(t *testing.T) {
	tests := map[string]struct {
		srv        *llmtest.FakeServer
		tune       func(*llm.Config)
		wantKind   map[string]SummaryKind // by root; others must be model summaries
		allKind    SummaryKind            // every summary's kind, when set
		wantReason string
	}{
		"500 gives raw previews": {
			srv:        &llmtest.FakeServer{Status: 500},
			allKind:    SummaryRawPreview,
			wantReason: "http 500",
		},
		"one failing session does not stop the others": {
			srv:        &llmtest.FakeServer{Status: 500, FailIf: func(p string) bool { return strings.Contains(p, "session.timeout.ms") }},
			wantKind:   map[string]SummaryKind{"s-kafka": SummaryRawPreview},
			wantReason: "http 500",
		},
		"429 then success": {
			srv:     &llmtest.FakeServer{Status: 429, RetryAfter: "0", FailFirst: 2},
			allKind: SummaryModel,
		},
		"server that never answers times out": {
			srv:        &llmtest.FakeServer{Hang: true},
			tune:       func(c *llm.Config) { c.FirstByteTimeout = 100 * time.Millisecond },
			allKind:    SummaryRawPreview,
			wantReason: "no response within 100ms",
		},
		"empty stream": {
			srv:        &llmtest.FakeServer{Reply: func(string) []string { return nil }},
			allKind:    SummaryRawPreview,
			wantReason: "no text",
		},
		"mid-stream disconnect": {
			srv:        &llmtest.FakeServer{Reply: func(string) []string { return []string{"a", "b", "c"} }, CutAfter: 1},
			allKind:    SummaryRawPreview,
			wantReason: "read stream",
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			f := openFixture(t)
			e := modelEngine(t, f, tc.srv, 3, tc.tune)
			results := discoverAll(t, e)
			rec := newRecorder()
			sums := e.Summarize(context.Background(), broadQuery, results, rec.on)
			for i, s := range sums {
				want := SummaryModel
				if tc.allKind != "" {
					want = tc.allKind
				} else if k, ok := tc.wantKind[results[i].RootID]; ok {
					want = k
				}
				if s.Kind != want {
					t.Errorf("%s: kind %s (%s), want %s", results[i].RootID, s.Kind, s.Reason, want)
					continue
				}
				if rec.done[i] == nil || rec.done[i].Text != s.Text {
					t.Errorf("%s: no Done event with the final text", results[i].RootID)
				}
				if want != SummaryRawPreview {
					continue
				}
				if !strings.HasPrefix(s.Text, RawPreviewLabel+"\n#") || !strings.Contains(s.Reason, tc.wantReason) ||
					!strings.Contains(s.Text, "Reason: ") {
					t.Errorf("%s: raw preview %q reason %q, want the label, the transcript and %q", results[i].RootID, s.Text, s.Reason, tc.wantReason)
				}
				if body := strings.TrimPrefix(s.Text, RawPreviewLabel+"\n"); len([]rune(strings.Split(body, "\n\nReason: ")[0])) > rawPreviewChars+len([]rune("\n…[truncated]")) {
					t.Errorf("%s: preview longer than %d characters", results[i].RootID, rawPreviewChars)
				}
			}
		})
	}
}

func TestSummarizeCancelStopsRequests(t *testing.T) {
	f := openFixture(t)
	srv := &llmtest.FakeServer{Delay: 150 * time.Millisecond, Reply: func(string) []string {
		return llmtest.WordDeltas("one two three four five six seven eight nine ten")
	}}
	e := modelEngine(t, f, srv, 5, nil)
	results := discoverAll(t, e)
	ctx, cancel := context.WithCancel(context.Background())
	var once sync.Once
	began := time.Now()
	var cancelled time.Time
	sums := e.Summarize(ctx, broadQuery, results, func(ev SummaryEvent) {
		if !ev.Done {
			once.Do(func() { cancelled = time.Now(); cancel() })
		}
	})
	if cancelled.IsZero() {
		t.Fatal("no delta arrived")
	}
	if waited := time.Since(cancelled); waited > 300*time.Millisecond {
		t.Errorf("Summarize returned %s after cancel (began %s ago)", waited, time.Since(began))
	}
	for _, s := range sums {
		if s.Kind != SummaryRawPreview || !strings.Contains(s.Reason, "context canceled") {
			t.Errorf("%s: %s %q, want a raw preview saying it was canceled", s.SessionID, s.Kind, s.Reason)
		}
	}
	deadline := time.Now().Add(2 * time.Second)
	for srv.Canceled() < len(results) && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if srv.Canceled() < len(results) {
		t.Errorf("server saw %d of %d requests abandoned", srv.Canceled(), len(results))
	}
}

func TestSummarizeWithoutModelIsExtractive(t *testing.T) {
	f := openFixture(t)
	e := New(f.st, Options{})
	if e.HasModel() {
		t.Fatal("HasModel without a config")
	}
	// "containers" is best matched in s-docker itself (not its child), whose
	// transcript is the one summarized.
	d, err := e.Discover(context.Background(), "containers", DiscoverOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var events atomic.Int64 // onEvent runs on several goroutines
	sums := e.Summarize(context.Background(), "containers", d.Results, func(SummaryEvent) { events.Add(1) })
	if int(events.Load()) != len(d.Results) {
		t.Errorf("%d events for %d results, want one Done each", events.Load(), len(d.Results))
	}
	var docker *Summary
	for i := range sums {
		if sums[i].Kind != SummaryExtractive || !strings.HasPrefix(sums[i].Text, ExtractiveHeading) {
			t.Errorf("%s: %s %q", sums[i].SessionID, sums[i].Kind, sums[i].Text)
		}
		if d.Results[i].RootID == "s-docker" {
			docker = &sums[i]
		}
	}
	if docker == nil {
		t.Fatal("no s-docker result")
	}
	for _, want := range []string{"`docker network inspect bridge`", "/etc/docker/daemon.json", "https://docs.docker.com/network/",
		"Error: network bridge not found", "Conclusion (assistant, #", "containers cannot reach each other",
		"`docker network create appnet`", "The containers reach each other now."} {
		if !strings.Contains(docker.Text, want) {
			t.Errorf("extractive summary lacks %q:\n%s", want, docker.Text)
		}
	}
}

func TestNewClampsOptions(t *testing.T) {
	tests := map[string]struct {
		in                  Options
		sessions, conc, bud int
	}{
		"defaults":                    {Options{}, 3, 3, 100_000},
		"clamped high":                {Options{Sessions: 50, Concurrency: 9}, 10, 5, 100_000},
		"clamped low":                 {Options{Sessions: -1, Concurrency: -4, Budget: -1}, 1, 1, 100_000},
		"config file max_concurrency": {Options{LLM: &llm.Config{Model: "m", BaseURL: "http://x", MaxConcurrency: 4}}, 3, 4, 100_000},
		"explicit beats config":       {Options{Concurrency: 2, LLM: &llm.Config{Model: "m", BaseURL: "http://x", MaxConcurrency: 4}}, 3, 2, 100_000},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			e := New(nil, tc.in)
			if e.opts.Sessions != tc.sessions || e.opts.Concurrency != tc.conc || e.opts.Budget != tc.bud {
				t.Errorf("got %+v", e.opts)
			}
			if e.HasModel() != (tc.in.LLM != nil) {
				t.Errorf("HasModel %v", e.HasModel())
			}
		})
	}
}
