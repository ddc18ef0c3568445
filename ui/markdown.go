package ui

import (
	"encoding/json"
	"strings"
	"sync"

	"github.com/charmbracelet/glamour"
	glamourstyles "github.com/charmbracelet/glamour/styles"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
)

// Glamour costs 10-17 ms per 4 KB of markdown, so it never runs in View:
// transcripts and summary frames are rendered in commands, and a streaming
// summary re-renders only its last, still-growing block (blockCache).

// markdown renders markdown with the pinned style, one Glamour renderer per
// wrap width. A TermRenderer is not safe for concurrent use, so each is
// guarded by its own mutex; commands for different widths run in parallel.
type markdown struct {
	style   []byte // Glamour JSON style, pinned (no background detection)
	profile termenv.Profile

	mu        sync.Mutex
	renderers map[int]*lockedRenderer
}

type lockedRenderer struct {
	mu sync.Mutex
	r  *glamour.TermRenderer
}

// newMarkdown renders with style (Glamour's dark style when empty) in the
// colours lipgloss chose for this terminal; mono removes every colour from
// the style and keeps its bold, italic and underline (NO_COLOR).
func newMarkdown(style []byte, mono bool) *markdown {
	m := &markdown{style: style, profile: lipgloss.ColorProfile(), renderers: map[int]*lockedRenderer{}}
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

// Render renders md wrapped at width cells. On a Glamour error it falls back
// to the plain text, which is already sanitised.
func (m *markdown) Render(md string, width int) string {
	width = max(width, 10)
	lr, err := m.renderer(width)
	if err != nil {
		return md
	}
	lr.mu.Lock()
	out, err := lr.r.Render(labelFences(md))
	lr.mu.Unlock()
	if err != nil {
		return md
	}
	lines := strings.Split(strings.Trim(out, "\n"), "\n")
	for i, l := range lines {
		lines[i] = trimStyledRight(l)
	}
	return strings.Join(lines, "\n")
}

// trimStyledRight drops the padding Glamour puts at the end of every line
// (a styled escape sequence per space: kilobytes per line at 200 columns)
// and ends the line with a reset instead; panes pad with plain spaces.
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

func (m *markdown) renderer(width int) (*lockedRenderer, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if lr, ok := m.renderers[width]; ok {
		return lr, nil
	}
	opts := []glamour.TermRendererOption{glamour.WithWordWrap(width), glamour.WithColorProfile(m.profile)}
	if len(m.style) > 0 {
		opts = append(opts, glamour.WithStylesFromJSONBytes(m.style))
	} else {
		opts = append(opts, glamour.WithStandardStyle("dark"))
	}
	r, err := glamour.NewTermRenderer(opts...)
	if err != nil {
		return nil, err
	}
	if len(m.renderers) > 8 { // resizing through many widths: keep memory bounded
		clear(m.renderers)
	}
	lr := &lockedRenderer{r: r}
	m.renderers[width] = lr
	return lr, nil
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
