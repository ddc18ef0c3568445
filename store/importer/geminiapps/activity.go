package geminiapps

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strings"
	"time"

	"golang.org/x/net/html"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer"
	"github.com/recall-dev/recall/store/importer/internal/export"
	"github.com/recall-dev/recall/store/importer/internal/textutil"
)

// activity is one prompt and what Gemini answered.
type activity struct {
	Prompt  string
	Time    time.Time
	Answers []string // one per safeHtmlItem: a regenerated answer is another
	Conv    string   // the conversation's id, when the activity names it
	Files   []string // what was attached
}

// jsonActivity is one element of MyActivity.json (Takeout's activity
// record, the fields a Gemini Apps record carries).
type jsonActivity struct {
	Header   string   `json:"header"`
	Title    string   `json:"title"`
	TitleURL string   `json:"titleUrl"`
	Time     string   `json:"time"`
	Products []string `json:"products"`
	SafeHTML []struct {
		HTML string `json:"html"`
	} `json:"safeHtmlItem"`
	Details []struct {
		Name string `json:"name"`
		URL  string `json:"url"`
	} `json:"details"`
	ImageFile     json.RawMessage `json:"imageFile"`
	AttachedFiles json.RawMessage `json:"attachedFiles"`
}

// promptVerbs are the activity titles that carry a prompt ("Prompted <the
// prompt>"); Takeout's other Gemini Apps activities (Created, Used, Gave
// feedback, Selected preferred draft, Added) are not a conversation turn.
var promptVerbs = []string{"Prompted ", "Asked ", "Branched ", "Answered "}

// promptOf is the prompt a title carries, "" when it is no prompt.
func promptOf(title string) (string, bool) {
	for _, v := range promptVerbs {
		if strings.HasPrefix(title, v) {
			return strings.TrimSpace(strings.TrimPrefix(title, v)), true
		}
	}
	return "", false
}

// convRE finds a Gemini conversation id in a URL.
var convRE = regexp.MustCompile(`gemini\.google\.com/(?:u/\d+/)?app/([0-9a-zA-Z_-]+)`)

func isGemini(header string, products []string) bool {
	for _, s := range append([]string{header}, products...) {
		if strings.Contains(s, "Gemini") || strings.Contains(s, "Bard") {
			return true
		}
	}
	return false
}

// readJSON streams MyActivity.json, one record at a time.
func readJSON(r io.Reader, t *importer.Tally) ([]activity, error) {
	dec := json.NewDecoder(r)
	tok, err := dec.Token()
	if err != nil {
		return nil, errors.New(importer.DecodeProblem(err))
	}
	if d, ok := tok.(json.Delim); !ok || d != '[' {
		return nil, fmt.Errorf("MyActivity.json is a list of activity records; this starts with %v", tok)
	}
	var out []activity
	for i := 1; dec.More(); i++ {
		t.Line = i
		var a jsonActivity
		if err := dec.Decode(&a); err != nil {
			return out, fmt.Errorf("activity record %d (byte %d): %s", i, dec.InputOffset(), importer.DecodeProblem(err))
		}
		if !isGemini(a.Header, a.Products) {
			t.Skip()
			continue
		}
		prompt, ok := promptOf(a.Title)
		if !ok {
			t.Skip() // a canvas, feedback, an extension used
			continue
		}
		ts := textutil.ParseTime(a.Time)
		if ts.IsZero() {
			t.Malformed("activity %q has no time (%q)", textutil.Title(a.Title), a.Time)
			continue
		}
		act := activity{Prompt: prompt, Time: ts.UTC()}
		for _, h := range a.SafeHTML {
			if txt := htmlText(h.HTML); txt != "" {
				act.Answers = append(act.Answers, txt)
			}
		}
		for _, d := range a.Details {
			if m := convRE.FindStringSubmatch(d.URL + " " + d.Name); m != nil {
				act.Conv = m[1]
			}
		}
		if m := convRE.FindStringSubmatch(a.TitleURL); m != nil && act.Conv == "" {
			act.Conv = m[1]
		}
		act.Files = append(names(a.ImageFile), names(a.AttachedFiles)...)
		out = append(out, act)
	}
	return out, nil
}

// names reads an attachment field: a file name or a list of them.
func names(raw json.RawMessage) []string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	var one string
	if json.Unmarshal(raw, &one) == nil {
		return []string{one}
	}
	var many []string
	if json.Unmarshal(raw, &many) == nil {
		return many
	}
	return nil
}

// readHTML reads MyActivity.html: each record an "outer-cell" whose header
// cell names the product and whose first content cell is
// "Prompted <the prompt><br><time><br><the answer's HTML>".
func readHTML(r io.Reader, t *importer.Tally) ([]activity, error) {
	doc, err := html.Parse(r)
	if err != nil {
		return nil, fmt.Errorf("not HTML: %v", err)
	}
	var out []activity
	n := 0
	for _, cell := range findClass(doc, "outer-cell") {
		n++
		t.Line = n
		header := findClass(cell, "header-cell")
		contents := findClass(cell, "content-cell")
		if len(header) == 0 || len(contents) == 0 || !isGemini(strings.TrimSpace(htmlText(render(header[0]))), nil) {
			t.Skip()
			continue
		}
		parts := splitBr(contents[0])
		if len(parts) < 2 {
			t.Skip()
			continue
		}
		prompt, ok := promptOf(strings.ReplaceAll(textOf(parts[0]), "\u00a0", " "))
		if !ok {
			t.Skip()
			continue
		}
		ts, err := parseHTMLTime(textOf(parts[1]))
		if err != nil {
			t.Malformed("activity %q: %v", textutil.Title(prompt), err)
			continue
		}
		act := activity{Prompt: prompt, Time: ts}
		var b strings.Builder
		for _, p := range parts[2:] {
			for _, n := range p {
				_ = html.Render(&b, n)
			}
			b.WriteString("<br>")
		}
		if txt := htmlText(b.String()); txt != "" {
			act.Answers = []string{txt}
		}
		for _, a := range findTag(contents[0], "a") {
			if m := convRE.FindStringSubmatch(attr(a, "href")); m != nil {
				act.Conv = m[1]
			}
		}
		out = append(out, act)
	}
	if n == 0 {
		return nil, errors.New("not a My Activity HTML file (no activity cells)")
	}
	return out, nil
}

// htmlTimeLayouts are My Activity's English time stamps ("Apr 20, 2026,
// 6:24:31 PM UTC"; the spaces before AM/PM may be narrow no-break ones).
var htmlTimeLayouts = []string{"Jan 2, 2006, 3:04:05 PM MST", "Jan 2, 2006, 3:04:05 PM -07:00", "2 Jan 2006, 15:04:05 MST"}

// parseHTMLTime reads a time stamp; "GMT+05:30" is an offset.
func parseHTMLTime(s string) (time.Time, error) {
	s = strings.Join(strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == '\u00a0' || r == '\u202f' }), " ")
	if i := strings.LastIndex(s, " GMT+"); i >= 0 || strings.Contains(s, " GMT-") {
		if i < 0 {
			i = strings.LastIndex(s, " GMT-")
		}
		s = s[:i] + " " + s[i+4:]
	}
	for _, l := range htmlTimeLayouts {
		if ts, err := time.Parse(l, s); err == nil {
			return ts.UTC(), nil
		}
	}
	return time.Time{}, fmt.Errorf("unreadable time %q (English My Activity is read)", s)
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

func findClass(n *html.Node, class string) []*html.Node {
	var out []*html.Node
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && strings.Contains(" "+attr(n, "class")+" ", " "+class+" ") {
			out = append(out, n)
			return
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return out
}

func findTag(n *html.Node, tag string) []*html.Node {
	var out []*html.Node
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && n.Data == tag {
			out = append(out, n)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return out
}

func render(n *html.Node) string {
	var b strings.Builder
	_ = html.Render(&b, n)
	return b.String()
}

// splitBr splits a cell's children at its top-level <br>s: the prompt,
// the time, then the answer.
func splitBr(cell *html.Node) [][]*html.Node {
	var parts [][]*html.Node
	var cur []*html.Node
	for c := cell.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && c.Data == "br" && len(parts) < 2 {
			parts = append(parts, cur)
			cur = nil
			continue
		}
		cur = append(cur, c)
	}
	return append(parts, cur)
}

func textOf(nodes []*html.Node) string {
	var b strings.Builder
	for _, n := range nodes {
		b.WriteString(render(n))
	}
	return strings.TrimSpace(htmlText(b.String()))
}

// conversations gathers activities into sessions: those naming one
// conversation together, the others one each, each in time order.
func conversations(acts []activity, t *importer.Tally) []export.Conversation {
	groups := map[string][]activity{}
	var order []string
	for _, a := range acts {
		id := a.Conv
		if id == "" {
			// Takeout prepends new activity: an id from the record's
			// own content survives the next export, a position would not.
			sum := sha256.Sum256([]byte(a.Time.Format(time.RFC3339Nano) + "\x00" + a.Prompt))
			id = "takeout-" + hex.EncodeToString(sum[:8])
		}
		if _, ok := groups[id]; !ok {
			order = append(order, id)
		}
		groups[id] = append(groups[id], a)
	}
	var out []export.Conversation
	for _, id := range order {
		g := groups[id]
		sort.SliceStable(g, func(i, j int) bool { return g[i].Time.Before(g[j].Time) })
		s := store.Session{ID: id, Source: SourceName, Title: textutil.Title(g[0].Prompt), StartedAt: g[0].Time, EndedAt: g[len(g)-1].Time}
		var msgs []store.Message
		h := sha256.New()
		for _, a := range g {
			key := a.Time.Format(time.RFC3339Nano)
			prompt := a.Prompt
			for _, f := range a.Files {
				prompt = textutil.Join("\n", prompt, "[file: "+f+"]")
			}
			msgs = append(msgs, store.Message{SessionID: id, Role: "user", Content: prompt, Timestamp: a.Time, SourceKey: key + ":user"})
			for i, ans := range a.Answers {
				msgs = append(msgs, store.Message{SessionID: id, Role: "assistant", Content: ans, Timestamp: a.Time, SourceKey: fmt.Sprintf("%s:answer:%d", key, i)})
			}
			fmt.Fprintf(h, "%s\x00%s\x00%q\x00%q\x00", key, a.Prompt, a.Answers, a.Files)
		}
		out = append(out, export.Conversation{Session: s, Messages: msgs, Fingerprint: hex.EncodeToString(h.Sum(nil)[:12])})
	}
	return out
}
