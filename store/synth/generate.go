package synth

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/recall-dev/recall/store"
)

// Anchor is the fixed end of the synthetic timeline: the newest session
// starts shortly before it, whatever the size of the corpus or the clock.
var Anchor = time.Date(2026, 11, 30, 18, 0, 0, 0, time.UTC)

// span is how far back the timeline reaches for a corpus of any size.
const span = 2 * 365 * 24 * time.Hour

// meanSessionMessages is the expected length of a root session with its
// children, used to spread sessions evenly over the span.
const meanSessionMessages = 26

// Options configures a Generator.
type Options struct {
	Messages int    // total messages to emit (exactly)
	Seed     uint64 // same seed, same corpus
	// Span is how far back before Anchor the sessions reach (default two years).
	Span time.Duration
}

// Session is one generated session and its messages, in order. Children
// (delegated sub-agent sessions) come as their own Session values right
// after their parent, with Session.ParentID set.
type Session struct {
	Session  store.Session
	Messages []store.Message
}

// Generator emits a corpus session by session, so a million messages never
// sit in memory at once.
type Generator struct {
	opt     Options
	r       *rand.Rand
	v       *vocabulary
	emitted int // messages emitted so far (the global index of the next one)
	nSess   int
	clock   time.Time
	gap     time.Duration // mean gap between session starts
	queue   []Session     // children waiting to be returned
	topicW  int
}

// New returns a generator for opt.
func New(opt Options) *Generator {
	g := &Generator{
		opt: opt,
		r:   rand.New(rand.NewPCG(opt.Seed, opt.Seed^0x9e3779b97f4a7c15)),
		v:   getVocab(),
	}
	if g.opt.Span <= 0 {
		g.opt.Span = span
	}
	sessions := max(1, opt.Messages/meanSessionMessages)
	g.gap = g.opt.Span / time.Duration(sessions)
	g.clock = Anchor.Add(-g.opt.Span)
	for _, t := range topicTexts {
		g.topicW += t.weight
	}
	return g
}

// Emitted is the number of messages returned so far.
func (g *Generator) Emitted() int { return g.emitted }

// Next returns the next session, or false when the corpus is complete.
func (g *Generator) Next() (Session, bool) {
	if len(g.queue) > 0 {
		s := g.queue[0]
		g.queue = g.queue[1:]
		return s, true
	}
	if g.emitted >= g.opt.Messages {
		return Session{}, false
	}
	for _, s := range g.root() {
		if len(s.Messages) > 0 {
			g.queue = append(g.queue, s)
		}
	}
	return g.Next()
}

// sessCtx is the per-session state templates are expanded against.
type sessCtx struct {
	g      *Generator
	topic  *topicText
	lang   string // en, zh, ja, ko
	svc    string
	proj   string
	host   string
	at     time.Time
	sess   store.Session
	msgs   []store.Message
	budget int // messages this session may still emit
	calls  int
	fix    string
}

var (
	sources = []struct {
		name   string
		weight int
	}{{"cli", 30}, {"claude-code", 28}, {"codex", 16}, {"gemini-cli", 10}, {"telegram", 8}, {"discord", 4}, {"cron", 4}}
	models = map[string][]string{
		"cli":         {"anthropic/claude-sonnet-4.5", "openai/gpt-5.1", "qwen/qwen3-coder", "deepseek/deepseek-v3.2"},
		"claude-code": {"claude-sonnet-4-5-20250929", "claude-opus-4-1-20250805", "claude-haiku-4-5"},
		"codex":       {"gpt-5.1-codex", "gpt-5-codex", "o4-mini"},
		"gemini-cli":  {"gemini-2.5-pro", "gemini-2.5-flash", "gemini-3-pro-preview"},
		"telegram":    {"anthropic/claude-sonnet-4.5", "moonshotai/kimi-k2"},
		"discord":     {"openai/gpt-5.1", "z-ai/glm-4.6"},
		"cron":        {"openai/gpt-5-mini"},
	}
	services = strings.Fields("api gateway billing auth worker scheduler ingest search notifier web admin reports youer-server payments indexer uploader")
	projects = strings.Fields("atlas helios kestrel orbit quarry lumen tundra sable cobalt meridian")
	hosts    = strings.Fields("prod-web-01 prod-web-02 staging-1 build-03 db-primary db-replica-2 edge-fra-1 edge-sin-2 k8s-node-7 mac-mini")
	users    = strings.Fields("app deploy readonly analytics migrator ci")
	dbs      = strings.Fields("orders events accounts metrics inventory audit")
	branches = strings.Fields("main develop release/2.4 feature/search-v2 fix/timeout hotfix/cert feature/ws-reconnect")
)

// root generates one root session and, sometimes, its delegated children.
func (g *Generator) root() []Session {
	r := g.r
	g.clock = g.clock.Add(time.Duration(float64(g.gap) * (0.2 + 1.6*r.Float64())))
	c := g.newSession(g.pickTopic(), "", g.clock)
	// Lengths: mostly short troubleshooting sessions, a long tail of long ones.
	n := 6 + r.IntN(24)
	switch x := r.IntN(100); {
	case x < 2:
		n = 150 + r.IntN(200)
	case x < 12:
		n = 40 + r.IntN(60)
	}
	c.budget = min(n, g.opt.Messages-g.emitted)
	out := []Session{{}}
	c.conversation(func() []Session {
		// Delegation: about one root in twelve hands a task to a sub-agent,
		// and a few of those children delegate again (three-level chains).
		if r.IntN(12) != 0 || g.opt.Messages-g.emitted-c.budget < 8 {
			return nil
		}
		return g.delegate(c, 0)
	}, &out)
	out[0] = c.finish()
	return out
}

func (g *Generator) pickTopic() *topicText {
	x := g.r.IntN(g.topicW)
	for i := range topicTexts {
		if x < topicTexts[i].weight {
			return &topicTexts[i]
		}
		x -= topicTexts[i].weight
	}
	return &topicTexts[0]
}

func (g *Generator) newSession(t *topicText, parent string, at time.Time) *sessCtx {
	r := g.r
	g.nSess++
	c := &sessCtx{g: g, topic: t, at: at,
		svc: pick(r, services), proj: pick(r, projects), host: pick(r, hosts)}
	switch x := r.IntN(100); {
	case x < 70:
		c.lang = "en"
	case x < 90:
		c.lang = "zh"
	case x < 95:
		c.lang = "ja"
	default:
		c.lang = "ko"
	}
	src := "cli"
	x := r.IntN(100)
	for _, s := range sources {
		if x < s.weight {
			src = s.name
			break
		}
		x -= s.weight
	}
	ms := models[src]
	if ms == nil {
		ms = models["cli"]
	}
	c.sess = store.Session{
		ID:        fmt.Sprintf("%s_%s_%06x", at.Format("20060102_150405"), t.key, g.nSess),
		Source:    src,
		Model:     pick(r, ms),
		Title:     c.expand(pick(r, t.titles)),
		ParentID:  parent,
		StartedAt: at,
		Cwd:       "/home/dev/src/" + c.proj,
		GitBranch: pick(r, branches),
	}
	if parent != "" {
		c.sess.Title = ""
	}
	return c
}

// conversation writes the session's messages: an ask, rounds of tool calls
// and explanations with follow-ups, and a closing. delegate, when it returns
// children, is called once after the first assistant turn.
func (c *sessCtx) conversation(delegate func() []Session, out *[]Session) {
	r := c.g.r
	t := c.topic
	c.fix = c.pickFix()
	c.user(c.ask())
	delegated := false
	for c.budget > 1 {
		// A round: optional tool calls, then an explanation.
		for k := r.IntN(3); k > 0 && c.budget > 2; k-- {
			c.toolRound()
		}
		if c.budget <= 1 {
			break
		}
		if !delegated && delegate != nil {
			delegated = true
			if kids := delegate(); len(kids) > 0 {
				*out = append(*out, kids...)
			}
		}
		c.assistant(c.explain(), "")
		if c.budget > 1 {
			c.user(c.followUp(t))
		}
	}
	if c.budget == 1 {
		c.assistant(c.closing(), "stop")
	}
}

// delegate writes a child session started from parent c (and sometimes a
// grandchild), spending its messages from the global budget.
func (g *Generator) delegate(parent *sessCtx, depth int) []Session {
	r := g.r
	child := g.newSession(parent.topic, parent.sess.ID, parent.at.Add(time.Duration(1+r.IntN(5))*time.Minute))
	child.svc, child.proj, child.host, child.lang = parent.svc, parent.proj, parent.host, parent.lang
	child.sess.Cwd, child.sess.GitBranch = parent.sess.Cwd, parent.sess.GitBranch
	child.budget = min(4+r.IntN(8), g.opt.Messages-g.emitted)
	// The parent announces the delegation with a tool call.
	goal := child.expand(pick(r, delegateGoals))
	if child.lang == "zh" {
		goal = child.expand(pick(r, delegateGoalsZh))
	}
	parent.delegationCall(goal)
	child.fix = parent.fix
	var out []Session
	child.user(goal)
	for child.budget > 1 {
		child.toolRound()
		if depth == 0 && len(out) == 0 && r.IntN(3) == 0 && child.budget > 1 {
			out = g.delegate(child, depth+1)
		}
	}
	if child.budget == 1 {
		child.assistant(child.expand(pick(r, childReports)), "stop")
	}
	return append([]Session{child.finish()}, out...)
}

// finish fills the session's counters and end time.
func (c *sessCtx) finish() Session {
	c.sess.MessageCount = len(c.msgs)
	c.sess.ToolCallCount = c.calls
	var in, outTok int64
	for _, m := range c.msgs {
		if m.Role == "assistant" {
			outTok += int64(m.TokenCount)
		} else {
			in += int64(m.TokenCount)
		}
	}
	c.sess.InputTokens, c.sess.OutputTokens = in*4, outTok
	c.sess.EstimatedCostUSD = float64(in*4)*3e-6 + float64(outTok)*15e-6
	c.sess.EndedAt = c.at.Add(time.Minute)
	c.sess.EndReason = "user_exit"
	return Session{Session: c.sess, Messages: c.msgs}
}

// add appends one message, planting benchmark terms by global index.
func (c *sessCtx) add(m store.Message) {
	g := c.g
	if g.emitted >= g.opt.Messages {
		// The corpus is complete: a session cut here simply ends early.
		c.budget = 0
		return
	}
	for _, p := range plants {
		if g.emitted%p.Period == p.Offset {
			s := p.Sentences[(g.emitted/p.Period)%len(p.Sentences)]
			if m.Content == "" {
				m.Content = s
			} else {
				m.Content += "\n" + s
			}
		}
	}
	c.at = c.at.Add(time.Duration(3+g.r.IntN(90)) * time.Second)
	m.SessionID = c.sess.ID
	m.Timestamp = c.at
	m.TokenCount = tokens(m.Content) + len(m.ToolCalls)/4
	c.msgs = append(c.msgs, m)
	g.emitted++
	c.budget--
}

func (c *sessCtx) user(text string) { c.add(store.Message{Role: "user", Content: text}) }

func (c *sessCtx) assistant(text, finish string) {
	c.add(store.Message{Role: "assistant", Content: text, FinishReason: finish})
}

// toolRound is an assistant tool call and its result (two messages).
func (c *sessCtx) toolRound() {
	r := c.g.r
	co := c.topic.cmds[r.IntN(len(c.topic.cmds))]
	cmd := c.expand(co.cmd)
	if c.budget < 2 {
		return
	}
	c.calls++
	id := fmt.Sprintf("call_%s_%d", c.g.word(), c.calls)
	pre := c.expand(pick(r, toolPreambles))
	if pre != "" && r.IntN(2) == 0 {
		pre = c.pad(pre, c.fillers("assistant"))
	}
	args := fmt.Sprintf(`{"command":%q}`, cmd)
	c.add(store.Message{Role: "assistant", Content: pre, FinishReason: "tool_calls",
		ToolCalls: fmt.Sprintf(`[{"id":%q,"type":"function","function":{"name":"terminal","arguments":%q}}]`, id, args)})
	c.add(store.Message{Role: "tool", ToolName: "terminal", ToolCallID: id,
		Content: fmt.Sprintf(`{"output": %q, "exit_code": %d}`, c.expand(co.out), exitCode(r))})
}

// delegationCall is the parent's delegate_task call and the tool result
// that reports the child's outcome.
func (c *sessCtx) delegationCall(goal string) {
	if c.budget < 2 {
		c.budget = 2
	}
	c.calls++
	id := fmt.Sprintf("call_delegate_%d", c.calls)
	args := fmt.Sprintf(`{"goal":%q}`, goal)
	c.add(store.Message{Role: "assistant", Content: "I'll hand this part to a sub-agent.", FinishReason: "tool_calls",
		ToolCalls: fmt.Sprintf(`[{"id":%q,"type":"function","function":{"name":"delegate_task","arguments":%q}}]`, id, args)})
	c.add(store.Message{Role: "tool", ToolName: "delegate_task", ToolCallID: id,
		Content: c.expand(pick(c.g.r, childReports))})
}

func exitCode(r *rand.Rand) int {
	if r.IntN(4) == 0 {
		return 1
	}
	return 0
}

func (c *sessCtx) ask() string {
	r := c.g.r
	t := c.topic
	var s string
	switch c.lang {
	case "zh":
		s = pick(r, orElse(t.asksZh, t.asks))
	case "ja":
		s = strings.ReplaceAll(pick(r, asksJa), "{label}", t.labelJa)
	case "ko":
		s = strings.ReplaceAll(pick(r, asksKo), "{label}", t.labelKo)
	default:
		s = pick(r, t.asks)
	}
	return c.pad(c.expand(s), c.fillers("user"))
}

func (c *sessCtx) pickFix() string {
	r := c.g.r
	if c.lang == "zh" && len(c.topic.fixesZh) > 0 {
		return c.expand(pick(r, c.topic.fixesZh))
	}
	return c.expand(pick(r, c.topic.fixes))
}

// explain is an assistant turn: an explanation, sometimes with code.
func (c *sessCtx) explain() string {
	r := c.g.r
	t := c.topic
	var s string
	switch c.lang {
	case "zh":
		s = c.pickFix()
	case "ja":
		s = strings.ReplaceAll(pick(r, fixesJa), "{label}", t.labelJa)
	case "ko":
		s = strings.ReplaceAll(pick(r, fixesKo), "{label}", t.labelKo)
	default:
		s = c.expand(pick(r, t.fixes))
	}
	s = c.expand(s)
	if len(t.code) > 0 && r.IntN(3) == 0 {
		cb := t.code[r.IntN(len(t.code))]
		s += "\n\n```" + cb.lang + "\n" + c.expand(cb.body) + "\n```"
	}
	return c.pad(s, c.fillers("assistant"))
}

func (c *sessCtx) followUp(t *topicText) string {
	r := c.g.r
	if c.lang == "zh" {
		return c.pad(c.expand(pick(r, followUpsZh)), c.fillers("user"))
	}
	if len(t.followUp) > 0 && r.IntN(2) == 0 {
		return c.expand(pick(r, t.followUp))
	}
	return c.pad(c.expand(pick(r, genericFollowUps)), c.fillers("user"))
}

func (c *sessCtx) closing() string {
	if c.lang == "zh" {
		return c.pad(c.expand(pick(c.g.r, closingsZh)), assistantFillersZh)
	}
	return c.pad(c.expand(pick(c.g.r, closings)), assistantFillers)
}

func (c *sessCtx) fillers(role string) []string {
	zh := c.lang == "zh"
	switch {
	case role == "user" && zh:
		return userFillersZh
	case role == "user":
		return userFillers
	case zh:
		return assistantFillersZh
	}
	return assistantFillers
}

// pad appends filler sentences until the message reaches a drawn target
// length, so messages average roughly 300 characters.
func (c *sessCtx) pad(s string, fill []string) string {
	r := c.g.r
	target := 260 + r.IntN(480)
	for n := 0; len([]rune(s)) < target && n < 6; n++ {
		s += " " + c.expand(pick(r, fill))
	}
	return s
}

// word is one Zipf draw from the vocabulary.
func (g *Generator) word() string { return g.v.sample(g.r) }

// expand replaces {slot} names in s. Anything else in braces (Go templates,
// JSON, shell ${VAR}) is copied as is.
func (c *sessCtx) expand(s string) string {
	if !strings.Contains(s, "{") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 32)
	for {
		i := strings.IndexByte(s, '{')
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		j := strings.IndexByte(s[i:], '}')
		if j < 0 {
			b.WriteString(s)
			return b.String()
		}
		name := s[i+1 : i+j]
		v, ok := c.slot(name)
		if !ok {
			b.WriteString(s[:i+1])
			s = s[i+1:]
			continue
		}
		b.WriteString(s[:i])
		b.WriteString(v)
		s = s[i+j+1:]
	}
}

// slot is the value of one template slot.
func (c *sessCtx) slot(name string) (string, bool) {
	r := c.g.r
	switch name {
	case "id":
		return c.g.word(), true
	case "svc":
		return c.svc, true
	case "proj":
		return c.proj, true
	case "host":
		return c.host, true
	case "path":
		return fmt.Sprintf("%s/%s/%s.%s", pick(r, []string{"internal", "cmd", "pkg", "src", "deploy", "config"}), c.g.word(), c.g.word(), pick(r, []string{"go", "py", "ts", "yaml", "toml", "rs", "sql"})), true
	case "gofile":
		return fmt.Sprintf("internal/%s/%s.go", c.g.word(), c.g.word()), true
	case "port":
		return pick(r, []string{"8080", "3000", "5432", "6379", "9090", "8443", "5000", "4000"}), true
	case "ver":
		return fmt.Sprintf("%d.%d.%d", 1+r.IntN(4), r.IntN(30), r.IntN(12)), true
	case "ip":
		return fmt.Sprintf("10.%d.%d.%d", r.IntN(256), r.IntN(256), 1+r.IntN(254)), true
	case "user":
		return pick(r, users), true
	case "db":
		return pick(r, dbs), true
	case "hex":
		return fmt.Sprintf("%012x", r.Uint64()&0xffffffffffff), true
	case "time":
		return c.at.Format("2006-01-02T15:04:05Z"), true
	case "date":
		return c.at.Format("2006/01/02 15:04:05"), true
	case "n":
		return fmt.Sprint(2 + r.IntN(40)), true
	case "big":
		return fmt.Sprint(1000 + r.IntN(90000)), true
	case "line":
		return fmt.Sprint(10 + r.IntN(900)), true
	case "mem":
		return pick(r, []string{"256Mi", "512Mi", "1Gi", "2Gi"}), true
	case "pod":
		return fmt.Sprintf("%s-%x-%s", c.svc, r.Uint32()&0xfffff, pick(r, []string{"x7k2p", "q9zrt", "m4n8w"})), true
	case "branch":
		return pick(r, branches), true
	case "slot":
		return fmt.Sprint(r.IntN(16384)), true
	case "fix":
		return c.fix, true
	case "label":
		return c.topic.labelZh, true
	case "cmd":
		return c.expand(c.topic.cmds[r.IntN(len(c.topic.cmds))].cmd), true
	}
	return "", false
}

func pick(r *rand.Rand, xs []string) string {
	if len(xs) == 0 {
		return ""
	}
	return xs[r.IntN(len(xs))]
}

// orElse is xs unless it is empty.
func orElse(xs, alt []string) []string {
	if len(xs) == 0 {
		return alt
	}
	return xs
}

// tokens estimates a token count: ~4 bytes per token for Latin text.
func tokens(s string) int { return len(s)/4 + 1 }
