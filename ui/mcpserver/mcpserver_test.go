package mcpserver

import (
	"encoding/json"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/recall-dev/recall/recall/llm"
	"github.com/recall-dev/recall/recall/llm/llmtest"
)

// TestListTools: one tool, described for a model: the four shapes, the
// query syntax, CJK, the budget; every parameter documented; read-only.
func TestListTools(t *testing.T) {
	cs := connect(t, writeFixture(t), nil, 0)
	res, err := cs.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Tools) != 1 || res.Tools[0].Name != ToolName {
		t.Fatalf("tools %v, want only %s", res.Tools, ToolName)
	}
	tool := res.Tools[0]
	for _, want := range []string{"DISCOVER", "SCROLL", "READ", "BROWSE", "OR", "NOT", `"exact phrase"`, "prefix*", "数据库", "max_chars", "around_message_id"} {
		if !strings.Contains(tool.Description, want) {
			t.Errorf("description lacks %q", want)
		}
	}
	if tool.Annotations == nil || !tool.Annotations.ReadOnlyHint {
		t.Error("tool not annotated read-only")
	}
	schema := tool.InputSchema.(map[string]any)
	props := schema["properties"].(map[string]any)
	want := []string{"query", "limit", "sort", "role_filter", "session_id", "around_message_id", "window", "current_session_id", "max_chars", "summarize"}
	if len(props) != len(want) {
		t.Errorf("%d parameters, want %d: %v", len(props), len(want), props)
	}
	for _, name := range want {
		p, ok := props[name].(map[string]any)
		if !ok || len(p["description"].(string)) < 40 {
			t.Errorf("parameter %s missing or undocumented: %v", name, props[name])
		}
	}
	if sort := props["sort"].(map[string]any); !slices.Equal(toStrings(sort["enum"]), []string{"newest", "oldest"}) {
		t.Errorf("sort enum %v", sort["enum"])
	}
	if req, _ := schema["required"].([]any); len(req) != 0 {
		t.Errorf("required %v, want none (every shape is optional arguments)", req)
	}
	if init := cs.InitializeResult(); init.ServerInfo.Name != "recall" || init.Instructions == "" || init.Capabilities.Tools == nil {
		t.Errorf("initialize result %+v", init)
	}
}

func toStrings(v any) []string {
	var out []string
	for _, s := range v.([]any) {
		out = append(out, s.(string))
	}
	return out
}

// TestDiscover: a query finds one result per lineage (root and its
// continuation once), hidden sources out, with anchored evidence, the root's
// metadata, and an offline summary by default.
func TestDiscover(t *testing.T) {
	fx := writeFixture(t)
	cs := connect(t, fx, nil, 0)
	a := call(t, cs, map[string]any{"query": "overlay network", "limit": 10, "max_chars": 100000})
	if a.isError || a.v["mode"] != "discover" {
		t.Fatalf("answer %s", a.text)
	}
	var sessions []string
	for _, r := range results(a) {
		sessions = append(sessions, r["session_id"].(string))
		if r["summary_kind"] != "extractive" || !strings.HasPrefix(r["summary"].(string), "Offline summary") {
			t.Errorf("%s: summary %v %q", r["session_id"], r["summary_kind"], r["summary"])
		}
		anchors := 0
		for _, m := range r["messages"].([]any) {
			if m.(map[string]any)["anchor"] == true {
				anchors++
				if int64(m.(map[string]any)["id"].(float64)) != int64(r["match_message_id"].(float64)) {
					t.Errorf("anchor is not match_message_id: %v", r)
				}
			}
		}
		if anchors != 1 {
			t.Errorf("%s: %d anchors", r["session_id"], anchors)
		}
	}
	slices.Sort(sessions)
	// r1 and c1 are one lineage: exactly one of them; sub is a subagent.
	if len(sessions) != 3 || !slices.Contains(sessions, "big") || !slices.Contains(sessions, "other") ||
		(slices.Contains(sessions, "r1") == slices.Contains(sessions, "c1")) {
		t.Errorf("sessions %v, want big, other and one of r1/c1", sessions)
	}
	for _, r := range results(a) {
		if r["session_id"] == "r1" || r["session_id"] == "c1" {
			if r["title"] != "Docker networking" || r["model"] != "gpt-x" {
				t.Errorf("lineage metadata not the root's: %v", r)
			}
			if r["session_id"] == "r1" {
				if len(r["bookend_start"].([]any)) == 0 || len(r["bookend_end"].([]any)) == 0 || r["messages_before"].(float64) != 5 {
					t.Errorf("r1 evidence: %v", r)
				}
			}
		}
	}
	cjk := call(t, cs, map[string]any{"query": "数据库"})
	if rs := results(cjk); len(rs) != 1 || rs[0]["session_id"] != "cjk" || !strings.Contains(rs[0]["snippet"].(string), ">>>") {
		t.Errorf("CJK discover: %s", cjk.text)
	}
	one := call(t, cs, map[string]any{"query": "改"})
	if rs := results(one); len(rs) != 1 || rs[0]["session_id"] != "cjk" {
		t.Errorf("one-character CJK discover: %s", one.text)
	}
	none := call(t, cs, map[string]any{"query": "xylophone"})
	if none.isError || none.v["count"] != float64(0) || none.v["message"] != "No matching sessions found." {
		t.Errorf("no match: %s", none.text)
	}
	tools := call(t, cs, map[string]any{"query": "packet trace", "role_filter": "tool"})
	if rs := results(tools); len(rs) != 1 || rs[0]["matched_role"] != "tool" {
		t.Errorf("role_filter tool: %s", tools.text)
	}
	// By default only user and assistant rows are searched: "packet trace"
	// is in tool rows only, and its words then find "packets" in a user
	// message (a plain query: any word, inflected), never a tool row.
	for _, r := range results(call(t, cs, map[string]any{"query": "packet trace"})) {
		if r["matched_role"] == "tool" {
			t.Errorf("tool rows searched by default: %v", r)
		}
	}
}

// TestDiscoverSort: sort=oldest puts the earliest matching session first.
func TestDiscoverSort(t *testing.T) {
	cs := connect(t, writeFixture(t), nil, 0)
	oldest := results(call(t, cs, map[string]any{"query": "kubernetes", "sort": "oldest", "limit": 3}))
	newest := results(call(t, cs, map[string]any{"query": "kubernetes", "sort": "newest", "limit": 3}))
	if len(oldest) != 3 || oldest[0]["session_id"] != "k01" || len(newest) != 3 || newest[0]["session_id"] != "k12" {
		t.Errorf("oldest %v, newest %v", ids(oldest), ids(newest))
	}
	// An unknown sort is relevance, as in Hermes, not an error.
	if a := call(t, cs, map[string]any{"query": "kubernetes", "sort": "relevance"}); a.isError {
		t.Errorf("sort=relevance: %s", a.text)
	}
}

func ids(rs []map[string]any) []string {
	var out []string
	for _, r := range rs {
		out = append(out, r["session_id"].(string))
	}
	return out
}

// TestClamping: limit to [1,10], window to [1,20], numbers as strings.
func TestClamping(t *testing.T) {
	fx := writeFixture(t)
	cs := connect(t, fx, nil, 0)
	for _, tc := range []struct {
		limit any
		want  int
	}{{50, 10}, {0, 1}, {-3, 1}, {"2", 2}, {nil, 3}} {
		a := call(t, cs, map[string]any{"query": "kubernetes", "limit": tc.limit, "max_chars": 100000})
		if n := len(results(a)); n != tc.want {
			t.Errorf("limit %v: %d results, want %d", tc.limit, n, tc.want)
		}
	}
	if n := len(results(call(t, cs, map[string]any{"limit": 50}))); n != 10 {
		t.Errorf("browse limit 50: %d results, want 10", n)
	}
	anchor := fx.ids["r1-20"]
	for _, tc := range []struct {
		window     any
		want       float64
		before     int
		after      int
		windowSeen float64
	}{{nil, 5, 5, 5, 5}, {50, 20, 19, 20, 20}, {0, 1, 1, 1, 1}, {"3", 3, 3, 3, 3}} {
		a := call(t, cs, map[string]any{"session_id": "r1", "around_message_id": anchor, "window": tc.window, "max_chars": 100000})
		if a.isError || a.v["mode"] != "scroll" || a.v["window"] != tc.windowSeen ||
			a.v["messages_before"] != float64(tc.before) || a.v["messages_after"] != float64(tc.after) {
			t.Errorf("window %v: %s", tc.window, a.text)
		}
	}
}

// TestScrollAndRead: scroll centres on the anchor (and pages by
// re-anchoring); read shows head 20 + tail 10 and says how to scroll.
func TestScrollAndRead(t *testing.T) {
	fx := writeFixture(t)
	cs := connect(t, fx, nil, 0)
	anchor := fx.ids["r1-20"]
	a := call(t, cs, map[string]any{"session_id": "r1", "around_message_id": anchor, "window": 2})
	got := msgIDs(a.v["messages"])
	if len(got) != 5 || got[2] != anchor || a.v["session_meta"].(map[string]any)["title"] != "Docker networking" {
		t.Fatalf("scroll: %s", a.text)
	}
	next := call(t, cs, map[string]any{"session_id": "r1", "around_message_id": got[4], "window": 2})
	if ng := msgIDs(next.v["messages"]); ng[0] != got[2] || ng[2] != got[4] {
		t.Errorf("paging forward from %d: %v", got[4], ng)
	}
	// The anchor lives in the continuation: rebound, with Hermes's warning.
	rb := call(t, cs, map[string]any{"session_id": "r1", "around_message_id": fx.ids["c1-1"]})
	if rb.isError || rb.v["session_id"] != "c1" || !strings.Contains(rb.v["warning"].(string), "rebound transparently") {
		t.Errorf("rebind: %s", rb.text)
	}
	// A unique prefix is enough.
	if p := call(t, cs, map[string]any{"session_id": "oth"}); p.isError || p.v["session_id"] != "other" {
		t.Errorf("prefix: %s", p.text)
	}

	r := call(t, cs, map[string]any{"session_id": "r1", "max_chars": 100000})
	ids := msgIDs(r.v["messages"])
	if r.v["mode"] != "read" || r.v["message_count"] != float64(40) || r.v["truncated"] != true || len(ids) != 30 ||
		ids[0] != fx.ids["r1-1"] || ids[19] != fx.ids["r1-20"] || ids[20] != fx.ids["r1-31"] ||
		!strings.Contains(r.v["message"].(string), "Pass around_message_id (any id above) to scroll the middle") {
		t.Errorf("read: %s", r.text)
	}
	short := call(t, cs, map[string]any{"session_id": "other"})
	if short.v["truncated"] != false || len(msgIDs(short.v["messages"])) != 2 || short.v["message"] != nil {
		t.Errorf("read of a short session: %s", short.text)
	}
}

// TestLineageExclusion: current_session_id leaves out its whole lineage
// (asked by the child, the root goes too) from discover and browse, and
// scroll into it is refused with Hermes's message.
func TestLineageExclusion(t *testing.T) {
	fx := writeFixture(t)
	cs := connect(t, fx, nil, 0)
	a := call(t, cs, map[string]any{"query": "overlay network", "current_session_id": "c1", "limit": 10})
	for _, r := range results(a) {
		if r["session_id"] == "r1" || r["session_id"] == "c1" {
			t.Errorf("current lineage in discover: %v", r["session_id"])
		}
	}
	if len(results(a)) != 2 {
		t.Errorf("discover without the current lineage: %v", ids(results(a)))
	}
	// Asked by title too: the title match is the current lineage.
	if rs := results(call(t, cs, map[string]any{"query": "Docker networking", "current_session_id": "r1"})); slices.ContainsFunc(rs, func(r map[string]any) bool {
		return r["matched_role"] == "session_title"
	}) {
		t.Errorf("title match of the current lineage: %v", rs)
	}
	b := call(t, cs, map[string]any{"current_session_id": "c1", "limit": 10})
	for _, r := range results(b) {
		if r["session_id"] == "r1" {
			t.Error("current lineage root in browse")
		}
	}
	s := call(t, cs, map[string]any{"session_id": "r1", "around_message_id": fx.ids["r1-20"], "current_session_id": "c1"})
	if !s.isError || s.v["error"] != "scroll rejected: anchor lives in the current session lineage (already in your active context)" {
		t.Errorf("scroll into the current lineage: %s", s.text)
	}
}

// TestBudget: every answer fits max_chars, whatever it is; trimming keeps
// the anchor (around the match) and the best result, and says what it cut
// and how to get it.
func TestBudget(t *testing.T) {
	fx := writeFixture(t)
	cs := connect(t, fx, nil, 0)
	calls := []map[string]any{
		{"query": "overlay network", "limit": 10},
		{"query": "kubernetes", "limit": 10},
		{"session_id": "big"},
		{"session_id": "r1"},
		{"session_id": "big", "around_message_id": fx.ids["big-3"], "window": 20},
		{"limit": 10},
	}
	for _, args := range calls {
		for _, limit := range []int{1, 2000, 2500, 6000, 12000, 30000} {
			args["max_chars"] = limit
			a := call(t, cs, args)
			want := max(limit, 2000) // max_chars is clamped to [2000, 100000]
			if n := utf8.RuneCountInString(a.text); n > want || a.isError {
				t.Errorf("%v: %d characters (error %v)", args, n, a.isError)
			}
			b, _ := a.v["budget"].(map[string]any)
			if b == nil || b["max_chars"] != float64(want) {
				t.Errorf("%v: budget %v", args, a.v["budget"])
			}
			if b["truncated"] == true && !strings.Contains(b["hint"].(string), "max_chars") {
				t.Errorf("%v: truncated without a hint: %v", args, b)
			}
		}
	}
	// The default budget applies when none is passed.
	def := call(t, cs, map[string]any{"query": "overlay network", "limit": 10})
	if n := utf8.RuneCountInString(def.text); n > 12000 || def.v["budget"].(map[string]any)["max_chars"] != float64(12000) {
		t.Errorf("default budget: %d characters, %v", n, def.v["budget"])
	}

	// The huge answer about the MTU: clipped around the match, marked.
	a := call(t, cs, map[string]any{"query": "MTU", "max_chars": 3000})
	rs := results(a)
	if len(rs) != 1 || rs[0]["truncated"] != true {
		t.Fatalf("MTU: %s", a.text)
	}
	var anchor string
	for _, m := range rs[0]["messages"].([]any) {
		if m.(map[string]any)["anchor"] == true {
			anchor = m.(map[string]any)["content"].(string)
		}
	}
	if !strings.Contains(anchor, "MTU") || !strings.Contains(anchor, "…[+") || !strings.Contains(anchor, "chars]…") {
		t.Errorf("anchor not clipped around the match: %.300q", anchor)
	}
	b := a.v["budget"].(map[string]any)
	if b["truncated"] != true || b["clipped_messages"].(float64) < 1 || !strings.Contains(b["hint"].(string), "around_message_id") {
		t.Errorf("budget %v", b)
	}
	// A small budget drops lower results, never the best one.
	small := call(t, cs, map[string]any{"query": "kubernetes", "limit": 10, "max_chars": 2000})
	full := call(t, cs, map[string]any{"query": "kubernetes", "limit": 10, "max_chars": 100000})
	if sr, fr := results(small), results(full); len(sr) == 0 || len(sr) >= len(fr) || sr[0]["session_id"] != fr[0]["session_id"] ||
		small.v["budget"].(map[string]any)["dropped_results"].(float64) != float64(len(fr)-len(sr)) || small.v["count"] != float64(len(sr)) {
		t.Errorf("small budget: %d of %d results, %v", len(sr), len(fr), small.v["budget"])
	}
}

// TestErrors: mistakes are tool results with isError and a message that
// says what to pass; the server keeps serving.
func TestErrors(t *testing.T) {
	fx := writeFixture(t)
	cs := connect(t, fx, nil, 0)
	for _, tc := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"session_id": "nope"}, "session_id not found: nope"},
		{map[string]any{"session_id": "k", "around_message_id": 1}, "matches several sessions"},
		{map[string]any{"session_id": "other", "around_message_id": fx.ids["r1-3"]}, "not in session_id other"},
		{map[string]any{"session_id": "r1", "around_message_id": fx.ids["r1-3"], "window": "wide"}, "window must be an integer"},
		{map[string]any{"session_id": "r1", "around_message_id": 2.5}, "around_message_id must be an integer"},
		{map[string]any{"session_id": "r1", "around_message_id": 0}, "around_message_id must be a message id"},
		{map[string]any{"around_message_id": 5}, "around_message_id needs session_id"},
		{map[string]any{"query": "x", "role_filter": "user,robot"}, `unknown role "robot"`},
		{map[string]any{"query": "x", "summarize": "maybe"}, "summarize must be true or false"},
		{map[string]any{"query": []any{"x"}}, "query must be a string"},
	} {
		a := call(t, cs, tc.args)
		if !a.isError || a.v["success"] != false || !strings.Contains(a.v["error"].(string), tc.want) {
			t.Errorf("%v: %s, want an error containing %q", tc.args, a.text, tc.want)
		}
	}
	// Arguments that are not an object at all.
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: ToolName, Arguments: json.RawMessage(`"docker"`)})
	if err != nil {
		t.Fatal(err)
	}
	if a := decodeResult(t, res); !a.isError || !strings.Contains(a.v["error"].(string), "JSON object") {
		t.Errorf("string arguments: %s", a.text)
	}
	// Still serving.
	if a := call(t, cs, map[string]any{"query": "kubernetes"}); a.isError {
		t.Errorf("after errors: %s", a.text)
	}
}

// TestSummaries: the offline summary is the default even with a model
// configured (no request reaches it); summarize: true asks the model; a
// model that hangs costs at most the timeout, then offline summaries.
func TestSummaries(t *testing.T) {
	fx := writeFixture(t)
	srv := &llmtest.FakeServer{Reply: func(string) []string { return llmtest.WordDeltas("The overlay was recreated [#21].") }}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	cs := connect(t, fx, &llm.Config{BaseURL: ts.URL + "/v1", Model: "fake"}, 5*time.Second)

	def := results(call(t, cs, map[string]any{"query": "overlay network"}))
	if srv.Requests() != 0 || def[0]["summary_kind"] != "extractive" || !strings.Contains(def[0]["summary_reason"].(string), "summarize: true") {
		t.Errorf("default: %d model requests, %v %v", srv.Requests(), def[0]["summary_kind"], def[0]["summary_reason"])
	}
	asked := results(call(t, cs, map[string]any{"query": "overlay network", "summarize": true}))
	if asked[0]["summary_kind"] != "model" || asked[0]["summary"] != "The overlay was recreated [#21]." {
		t.Errorf("summarize: %v %q", asked[0]["summary_kind"], asked[0]["summary"])
	}

	hang := &llmtest.FakeServer{Hang: true}
	hs := httptest.NewServer(hang)
	defer hs.Close()
	hcs := connect(t, fx, &llm.Config{BaseURL: hs.URL + "/v1", Model: "slow"}, 300*time.Millisecond)
	began := time.Now()
	a := call(t, hcs, map[string]any{"query": "overlay network", "summarize": true})
	took := time.Since(began)
	if took > 3*time.Second {
		t.Errorf("a hanging model held the answer %s (timeout 300ms)", took)
	}
	for _, r := range results(a) {
		if r["summary_kind"] != "extractive" || !strings.Contains(r["summary_reason"].(string), "did not finish within 300ms") {
			t.Errorf("after the timeout: %v %v", r["summary_kind"], r["summary_reason"])
		}
	}
	if hang.Requests() == 0 {
		t.Error("the hanging model was never asked")
	}
}
