package geminiapps

import (
	"regexp"
	"strings"

	"golang.org/x/net/html"
)

// htmlText turns the HTML of a Gemini answer (safeHtmlItem) into the text a
// person reads, close to the Markdown Gemini wrote it from: paragraphs and
// block elements on lines of their own, list items as "- " / "1. ",
// <pre> as a fenced code block, headings as "#", <br> a line break, links
// their text; scripts and styles dropped.
func htmlText(src string) string {
	doc, err := html.Parse(strings.NewReader(src))
	if err != nil {
		return strings.TrimSpace(src)
	}
	var b strings.Builder
	w := &textWriter{b: &b}
	w.node(doc, 0)
	return strings.TrimSpace(collapseBlankLines(b.String()))
}

type textWriter struct {
	b   *strings.Builder
	pre int // inside <pre>: keep whitespace
}

// block ends the current line and leaves one blank line before what follows.
func (w *textWriter) block() {
	s := w.b.String()
	if s == "" || strings.HasSuffix(s, "\n\n") {
		return
	}
	if strings.HasSuffix(s, "\n") {
		w.b.WriteString("\n")
		return
	}
	w.b.WriteString("\n\n")
}

func (w *textWriter) line() {
	if s := w.b.String(); s != "" && !strings.HasSuffix(s, "\n") {
		w.b.WriteString("\n")
	}
}

func (w *textWriter) node(n *html.Node, depth int) {
	switch n.Type {
	case html.TextNode:
		if w.pre > 0 {
			w.b.WriteString(n.Data)
			return
		}
		t := spaceRE.ReplaceAllString(n.Data, " ")
		if prev := w.b.String(); prev == "" || strings.HasSuffix(prev, "\n") || strings.HasSuffix(prev, " ") {
			t = strings.TrimLeft(t, " ")
		}
		w.b.WriteString(t)
		return
	case html.ElementNode:
	default:
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			w.node(c, depth)
		}
		return
	}
	switch n.Data {
	case "script", "style", "template", "noscript", "head":
		return
	case "br":
		w.b.WriteString("\n")
		return
	case "hr":
		w.block()
		w.b.WriteString("---")
		w.block()
		return
	case "pre":
		w.block()
		w.b.WriteString("```\n")
		w.pre++
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			w.node(c, depth)
		}
		w.pre--
		w.line()
		w.b.WriteString("```")
		w.block()
		return
	case "code":
		if w.pre > 0 {
			break
		}
		w.b.WriteString("`")
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			w.node(c, depth)
		}
		w.b.WriteString("`")
		return
	case "h1", "h2", "h3", "h4", "h5", "h6":
		w.block()
		w.b.WriteString(strings.Repeat("#", int(n.Data[1]-'0')) + " ")
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			w.node(c, depth)
		}
		w.block()
		return
	case "li":
		w.line()
		w.b.WriteString(strings.Repeat("  ", max(depth-1, 0)))
		if n.Parent != nil && n.Parent.Data == "ol" {
			i := 1
			for s := n.PrevSibling; s != nil; s = s.PrevSibling {
				if s.Type == html.ElementNode && s.Data == "li" {
					i++
				}
			}
			w.b.WriteString(itoa(i) + ". ")
		} else {
			w.b.WriteString("- ")
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			w.node(c, depth)
		}
		w.line()
		return
	case "ul", "ol":
		w.line()
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			w.node(c, depth+1)
		}
		if depth == 0 {
			w.block()
		}
		return
	case "p", "div", "table", "blockquote", "section", "article":
		w.block()
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			w.node(c, depth)
		}
		w.block()
		return
	case "tr":
		w.line()
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			w.node(c, depth)
		}
		w.line()
		return
	case "td", "th":
		w.b.WriteString("| ")
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			w.node(c, depth)
		}
		w.b.WriteString(" ")
		return
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		w.node(c, depth)
	}
}

// spaceRE is a run of white space, which HTML shows as one space.
var spaceRE = regexp.MustCompile(`[ \t\n\r\f]+`)

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}

// collapseBlankLines keeps at most one blank line in a row and trims each
// line's trailing spaces.
func collapseBlankLines(s string) string {
	lines := strings.Split(s, "\n")
	out := lines[:0]
	blank := 0
	for _, l := range lines {
		l = strings.TrimRight(l, " ")
		if strings.TrimSpace(l) == "" {
			blank++
			if blank > 1 {
				continue
			}
			l = ""
		} else {
			blank = 0
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}
