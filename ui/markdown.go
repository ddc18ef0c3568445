package ui

import (
	"encoding/json"
	"html"
	"regexp"
	"strings"
	"sync"

	"github.com/charmbracelet/glamour"
	glamourstyles "github.com/charmbracelet/glamour/styles"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"
	"github.com/recall-dev/recall/ui/termtext"
)

// Glamour costs 10-17 ms per 4 KB of markdown, so it never runs in View:
// transcripts and summary frames are rendered in commands, and a streaming
// summary re-renders only its last, still-growing block (blockCache).
//
// Glamour lays the blocks out but does not wrap (word wrap 0): its wrapper
// breaks only at spaces, so a line of Chinese or Japanese became one word
// the pane had to cut, and its two wrapping passes (paragraph, then
// document) broke some lines twice. Each line it renders is wrapped once,
// at the pane's exact width, by termtext.Wrap, with the hanging indent of
// its block: a quote keeps its bar, a list item its indent, a code line its
// own indentation.

// markdown renders markdown with the pinned style. A TermRenderer is not
// safe for concurrent use, so renderers come from a pool: commands rendering
// a transcript and a summary frame at once each get their own.
type markdown struct {
	style   []byte // Glamour JSON style, pinned (no background detection)
	profile termenv.Profile
	pool    sync.Pool // *glamour.TermRenderer
}

// newMarkdown renders with style (Glamour's dark style when empty) in the
// colours lipgloss chose for this terminal; mono removes every colour from
// the style and keeps its bold, italic and underline (NO_COLOR).
func newMarkdown(style []byte, mono bool) *markdown {
	m := &markdown{style: style, profile: lipgloss.ColorProfile()}
	if mono {
		m.style, m.profile = colorless(style), termenv.ANSI
	}
	return m
}

// colorless returns style with every colour key removed, at any depth, and
// no code highlighting: Glamour registers its chroma theme once per process
// under one name, so a colourless theme could not be told from a coloured one.
// A style that does not parse becomes Glamour's dark style without colours.
func colorless(style []byte) []byte {
	var v any
	if len(style) == 0 || json.Unmarshal(style, &v) != nil {
		b, err := json.Marshal(glamourstyles.DarkStyleConfig)
		if err != nil || json.Unmarshal(b, &v) != nil {
			return nil
		}
	}
	var strip func(any)
	strip = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for _, k := range []string{"color", "background_color", "chroma", "theme"} {
				delete(v, k)
			}
			for _, c := range v {
				strip(c)
			}
		case []any:
			for _, c := range v {
				strip(c)
			}
		}
	}
	strip(v)
	b, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	return b
}

// tabWidth is how many cells a tab in a code block takes.
const tabWidth = 4

// Render renders md into lines of at most width cells (see the comment at
// the top of the file). Highlight markers in md stay in the output, balanced
// on every line. On a Glamour error the text is wrapped as it is.
func (m *markdown) Render(md string, width int) string {
	return strings.Join(m.RenderLines(md, width), "\n")
}

// RenderLines is Render as lines.
func (m *markdown) RenderLines(md string, width int) []string {
	width = max(width, 10)
	out, err := m.glamour(neutralizeEntities(labelFences(md)))
	if err != nil {
		out = md
	}
	var lines []string
	for _, l := range strings.Split(strings.Trim(out, "\n"), "\n") {
		l = trimStyledRight(termtext.ExpandTabs(termtext.SanitizeStyled(l), tabWidth))
		lines = append(lines, termtext.Wrap(l, width, hangingIndent(ansi.Strip(l)))...)
	}
	return lines
}

func (m *markdown) glamour(md string) (string, error) {
	r, _ := m.pool.Get().(*glamour.TermRenderer)
	if r == nil {
		opts := []glamour.TermRendererOption{glamour.WithWordWrap(0), glamour.WithColorProfile(m.profile)}
		if len(m.style) > 0 {
			opts = append(opts, glamour.WithStylesFromJSONBytes(m.style))
		} else {
			opts = append(opts, glamour.WithStandardStyle("dark"))
		}
		var err error
		if r, err = glamour.NewTermRenderer(opts...); err != nil {
			return "", err
		}
	}
	out, err := r.Render(md)
	m.pool.Put(r)
	return out, err
}

// hangingIndent is the indent the continuation lines of a rendered line
// need, from its plain text: the leading spaces and quote bars are kept, a
// list bullet, number or task box becomes spaces, so wrapped text lines up
// under the item's first word and a quote's bar runs down its whole height.
// A code line's own indentation is leading space, so it is kept too.
func hangingIndent(plain string) string {
	i := 0
	for i < len(plain) {
		switch {
		case plain[i] == ' ':
			i++
		case strings.HasPrefix(plain[i:], "│"):
			i += len("│")
		default:
			goto marker
		}
	}
marker:
	rest := plain[i:]
	for _, m := range []string{"• ", "[✓] ", "[ ] "} {
		if strings.HasPrefix(rest, m) {
			i += len(m)
			goto done
		}
	}
	if n := len(rest) - len(strings.TrimLeft(rest, "0123456789")); n > 0 && strings.HasPrefix(rest[n:], ". ") {
		i += n + 2
	}
done:
	return strings.Map(func(r rune) rune {
		if r == '│' {
			return r
		}
		return ' '
	}, plain[:i])
}

// entityRE matches numeric character references, which Glamour decodes.
var entityRE = regexp.MustCompile(`&#(?:[0-9]{1,8}|[xX][0-9a-fA-F]{1,7});?`)

// neutralizeEntities removes numeric character references that would decode
// into something the sanitizer removes (&#27; is ESC, &#x202e; a bidi
// override): Glamour decodes them after our sanitizer ran, so "&#27;]0;x&#7;"
// in a transcript would otherwise reach the terminal as a real title change.
// (SanitizeStyled on the output catches them too; this keeps the text
// around them intact.)
func neutralizeEntities(md string) string {
	if !strings.Contains(md, "&#") {
		return md
	}
	return entityRE.ReplaceAllStringFunc(md, func(e string) string {
		decoded := html.UnescapeString(e)
		if decoded == e || termtext.Sanitize(decoded) == decoded && !strings.ContainsAny(decoded, "\ue000\ue001") {
			return e
		}
		return ""
	})
}

// trimStyledRight drops trailing spaces and the empty styled runs Glamour
// leaves at the end of a line, and ends the line with a reset instead.
func trimStyledRight(l string) string {
	end := len(l)
	for end > 0 {
		if l[end-1] == ' ' {
			end--
			continue
		}
		if l[end-1] == 'm' {
			if j := strings.LastIndexByte(l[:end], 0x1b); j >= 0 && j+1 < end-1 && l[j+1] == '[' &&
				strings.Trim(l[j+2:end-1], "0123456789;") == "" {
				end = j
				continue
			}
		}
		break
	}
	if end == len(l) {
		return l
	}
	return l[:end] + "\x1b[0m"
}

// labelFences gives bare opening code fences the language "text": Glamour's
// highlighter renders an unlabelled block 2-3x slower while it guesses.
func labelFences(md string) string {
	if !strings.Contains(md, "```") && !strings.Contains(md, "~~~") {
		return md
	}
	lines := strings.Split(md, "\n")
	var open string // the fence that opened the current block, "" outside
	for i, l := range lines {
		t := strings.TrimLeft(l, " ")
		if len(l)-len(t) > 3 {
			continue
		}
		fence := fenceOf(t)
		switch {
		case fence == "":
		case open == "":
			open = fence
			if strings.TrimSpace(t[len(fence):]) == "" {
				lines[i] = l + "text"
			}
		case strings.HasPrefix(fence, open) && strings.TrimSpace(t[len(fence):]) == "":
			open = ""
		}
	}
	return strings.Join(lines, "\n")
}

// fenceOf returns the run of ``` or ~~~ (three or more) that starts t, or "".
func fenceOf(t string) string {
	if len(t) < 3 || (t[0] != '`' && t[0] != '~') {
		return ""
	}
	n := 0
	for n < len(t) && t[n] == t[0] {
		n++
	}
	if n < 3 {
		return ""
	}
	return t[:n]
}

// splitBlocks cuts markdown at blank lines outside code fences. Every block
// but the last is finished while text streams in.
func splitBlocks(md string) []string {
	var blocks []string
	lines := strings.Split(md, "\n")
	start := 0
	open := ""
	for i, l := range lines {
		t := strings.TrimLeft(l, " ")
		if f := fenceOf(t); f != "" {
			switch {
			case open == "":
				open = f
			case strings.HasPrefix(f, open) && strings.TrimSpace(t[len(f):]) == "":
				open = ""
			}
			continue
		}
		if open == "" && strings.TrimSpace(l) == "" {
			if i > start {
				blocks = append(blocks, strings.Join(lines[start:i], "\n"))
			}
			start = i + 1
		}
	}
	if start < len(lines) {
		if rest := strings.Join(lines[start:], "\n"); strings.TrimSpace(rest) != "" {
			blocks = append(blocks, rest)
		}
	}
	return blocks
}

// blockCache renders a growing markdown document: finished blocks are
// rendered once and kept; only the last block is rendered on every frame.
// One frame renders at a time (the model keeps a single render in flight),
// the mutex only makes that safe to rely on.
type blockCache struct {
	mu     sync.Mutex
	md     *markdown
	width  int
	blocks map[string]string
	// Renders counts Glamour calls, for tests and benchmarks.
	renders int
}

func newBlockCache(md *markdown) *blockCache {
	return &blockCache{md: md, blocks: map[string]string{}}
}

// Frame renders doc for a streaming frame.
func (c *blockCache) Frame(doc string, width int) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if width != c.width {
		c.width = width
		clear(c.blocks)
	}
	blocks := splitBlocks(doc)
	out := make([]string, len(blocks))
	for i, b := range blocks {
		if i < len(blocks)-1 {
			if r, ok := c.blocks[b]; ok {
				out[i] = r
				continue
			}
		}
		out[i] = c.md.Render(b, width)
		c.renders++
		if i < len(blocks)-1 {
			c.blocks[b] = out[i]
		}
	}
	return strings.Join(out, "\n\n")
}

// Full renders doc in one piece, once, when the stream has ended.
func (c *blockCache) Full(doc string, width int) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.renders++
	return c.md.Render(doc, width)
}

// Renders returns how many Glamour calls the cache made.
func (c *blockCache) Renders() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.renders
}
