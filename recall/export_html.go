package recall

import (
	"bytes"
	"fmt"
	"html/template"
	"io"
	"strings"
	"time"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/util"

	"github.com/recall-dev/recall/store"
)

// ExportHTML writes a session as one self-contained HTML page: no script,
// no request for anything (the styles are inline), readable offline, in
// light and dark. Prose is rendered from markdown with raw HTML left out
// and dangerous links dropped (goldmark's safe default), tool output is
// shown as it was printed, tool calls and reasoning fold away. Like
// ExportMarkdown it writes what it is given: the caller redacts.
func ExportHTML(w io.Writer, sess store.Session, msgs []store.Message) error {
	title := strings.Join(strings.Fields(sess.Title), " ")
	if title == "" {
		first := ""
		for _, m := range msgs {
			if m.Prompt() && strings.TrimSpace(m.Content) != "" {
				first = m.Content
				break
			}
		}
		title = SessionName("", first)
	}
	if title == "" {
		title = "Session " + sess.ID
	}
	page := htmlPage{Title: controlFree(title), Session: sess, Count: len(msgs), Generated: time.Now().UTC().Format(time.RFC3339)}
	if !sess.StartedAt.IsZero() {
		page.Started = sess.StartedAt.UTC().Format("2006-01-02 15:04 UTC")
	}
	md := goldmark.New(goldmark.WithExtensions(extension.GFM),
		goldmark.WithRendererOptions(renderer.WithNodeRenderers(util.Prioritized(htmlAsText{}, 0))))
	for i, m := range msgs {
		hm := htmlMessage{N: i + 1, Role: m.Role, Speaker: Speaker(m), Tool: controlFree(m.ToolName), Compacted: m.Compacted}
		if !m.Timestamp.IsZero() {
			hm.Time, hm.ISO = m.Timestamp.UTC().Format("2006-01-02 15:04:05"), m.Timestamp.UTC().Format(time.RFC3339)
		}
		content := controlFree(m.Content)
		if m.Role == "tool" {
			hm.Output = content
			hm.Lines = strings.Count(strings.TrimRight(content, "\n"), "\n") + 1
		} else if strings.TrimSpace(content) != "" {
			var b bytes.Buffer
			if err := md.Convert([]byte(content), &b); err != nil {
				return fmt.Errorf("render message %d: %w", i+1, err)
			}
			hm.Body = template.HTML(b.String()) // HTML in the text shown as text, unsafe links dropped
		}
		if r := strings.TrimSpace(controlFree(m.Reasoning)); r != "" {
			hm.Reasoning = r
		}
		if calls, ok := ParseToolCalls(m.ToolCalls); ok {
			for _, c := range calls {
				hm.Calls = append(hm.Calls, htmlCall{Describe: controlFree(c.Describe()), Args: controlFree(c.PrettyArgs())})
			}
		} else if raw := strings.TrimSpace(m.ToolCalls); raw != "" && raw != "[]" {
			hm.Calls = append(hm.Calls, htmlCall{Describe: "tool calls", Args: controlFree(raw)})
		}
		page.Messages = append(page.Messages, hm)
	}
	return htmlTemplate.Execute(w, page)
}

type htmlPage struct {
	Title     string
	Session   store.Session
	Started   string
	Count     int
	Generated string
	Messages  []htmlMessage
}

type htmlMessage struct {
	N                   int
	Role, Speaker, Tool string
	Time, ISO           string
	Body                template.HTML
	Output, Reasoning   string
	Lines               int
	Calls               []htmlCall
	Compacted           bool
}

type htmlCall struct{ Describe, Args string }

// htmlAsText renders HTML written in a message as the text it is (a
// transcript quotes HTML; the page never runs it), where goldmark's safe
// mode would drop it.
type htmlAsText struct{}

func (htmlAsText) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(ast.KindRawHTML, func(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
		if entering {
			segs := node.(*ast.RawHTML).Segments
			for i := 0; i < segs.Len(); i++ {
				seg := segs.At(i)
				template.HTMLEscape(w, seg.Value(source))
			}
		}
		return ast.WalkSkipChildren, nil
	})
	reg.Register(ast.KindHTMLBlock, func(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
		n := node.(*ast.HTMLBlock)
		if !entering {
			return ast.WalkContinue, nil
		}
		_, _ = w.WriteString("<pre>")
		lines := n.Lines()
		for i := 0; i < lines.Len(); i++ {
			line := lines.At(i)
			template.HTMLEscape(w, line.Value(source))
		}
		if n.HasClosure() {
			closure := n.ClosureLine
			template.HTMLEscape(w, closure.Value(source))
		}
		_, _ = w.WriteString("</pre>\n")
		return ast.WalkSkipChildren, nil
	})
}

// controlFree drops control characters (but newline and tab): a transcript
// may hold terminal escape sequences, which a page would show as garbage.
func controlFree(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 && r != '\n' && r != '\t' || r == 0x7f || r >= 0x80 && r < 0xa0 {
			return -1
		}
		return r
	}, s)
}

// outputFolded is how many lines of tool output show without unfolding.
const outputFolded = 40

var htmlTemplate = template.Must(template.New("page").Funcs(template.FuncMap{
	"folded": func(n int) bool { return n > outputFolded },
}).Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="recall">
<meta name="referrer" content="no-referrer">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<title>{{.Title}}</title>
<style>
:root{color-scheme:light dark;--fg:#1f2328;--muted:#656d76;--bg:#fff;--card:#f6f8fa;--line:#d0d7de;--user:#0969da;--assistant:#8250df;--tool:#1a7f37;--system:#9a6700;--code:#eff1f3}
@media (prefers-color-scheme:dark){:root{--fg:#e6edf3;--muted:#8d96a0;--bg:#0d1117;--card:#161b22;--line:#30363d;--user:#4493f8;--assistant:#ab7df8;--tool:#3fb950;--system:#d29922;--code:#1f2428}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);font:15px/1.55 -apple-system,BlinkMacSystemFont,"Segoe UI","Noto Sans",Helvetica,Arial,"PingFang SC","Hiragino Sans","Microsoft YaHei",sans-serif}
main{max-width:56rem;margin:0 auto;padding:2rem 1rem 4rem}
h1{font-size:1.6rem;line-height:1.25;margin:0 0 .75rem;overflow-wrap:anywhere}
dl.meta{display:grid;grid-template-columns:max-content 1fr;gap:.15rem 1rem;margin:0 0 2rem;color:var(--muted);font-size:.9rem}
dl.meta dt{font-weight:600}dl.meta dd{margin:0;overflow-wrap:anywhere}
article{border:1px solid var(--line);border-left:4px solid var(--line);border-radius:6px;background:var(--card);margin:0 0 1rem;padding:.6rem 1rem}
article.user{border-left-color:var(--user)}article.assistant{border-left-color:var(--assistant)}article.tool{border-left-color:var(--tool)}article.system{border-left-color:var(--system)}
article.compacted{opacity:.7}
article>header{display:flex;flex-wrap:wrap;gap:.5rem;align-items:baseline;font-size:.85rem;color:var(--muted);margin-bottom:.3rem}
article>header a{color:inherit;text-decoration:none}
.who{font-weight:700;text-transform:uppercase;letter-spacing:.03em}
article.user .who{color:var(--user)}article.assistant .who{color:var(--assistant)}article.tool .who{color:var(--tool)}article.system .who{color:var(--system)}
.body>:first-child{margin-top:0}.body>:last-child{margin-bottom:0}
.body{overflow-wrap:anywhere}
pre{background:var(--code);border-radius:6px;padding:.6rem .8rem;overflow-x:auto;font:13px/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;white-space:pre-wrap;overflow-wrap:anywhere;margin:.4rem 0}
code{font:13px ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:var(--code);border-radius:4px;padding:.1em .3em}
pre code{background:none;padding:0}
details{margin:.4rem 0}summary{cursor:pointer;color:var(--muted);font-size:.9rem}
table{border-collapse:collapse}td,th{border:1px solid var(--line);padding:.2rem .5rem}
blockquote{margin:0;padding-left:1rem;border-left:3px solid var(--line);color:var(--muted)}
footer{color:var(--muted);font-size:.8rem;margin-top:2rem}
</style>
</head>
<body>
<main>
<header>
<h1>{{.Title}}</h1>
<dl class="meta">
<dt>id</dt><dd><code>{{.Session.ID}}</code></dd>
<dt>source</dt><dd>{{.Session.Source}}</dd>
{{- if .Session.Model}}<dt>model</dt><dd>{{.Session.Model}}</dd>{{end}}
{{- if .Started}}<dt>started</dt><dd>{{.Started}}</dd>{{end}}
{{- if .Session.Cwd}}<dt>directory</dt><dd><code>{{.Session.Cwd}}</code></dd>{{end}}
{{- if .Session.GitBranch}}<dt>branch</dt><dd><code>{{.Session.GitBranch}}</code></dd>{{end}}
{{- if .Session.ParentID}}<dt>parent</dt><dd><code>{{.Session.ParentID}}</code></dd>{{end}}
<dt>messages</dt><dd>{{.Count}}</dd>
</dl>
</header>
{{range .Messages}}
<article class="{{.Role}}{{if .Compacted}} compacted{{end}}" id="m{{.N}}">
<header><a href="#m{{.N}}">#{{.N}}</a><span class="who">{{.Speaker}}</span>{{if .Tool}}<span>{{.Tool}}</span>{{end}}{{if .Time}}<time datetime="{{.ISO}}">{{.Time}}</time>{{end}}{{if .Compacted}}<span>compacted</span>{{end}}</header>
{{- if .Reasoning}}
<details class="reasoning"><summary>reasoning</summary><pre>{{.Reasoning}}</pre></details>
{{- end}}
{{- if .Body}}
<div class="body">{{.Body}}</div>
{{- end}}
{{- if .Output}}
{{- if folded .Lines}}
<details><summary>output, {{.Lines}} lines</summary><pre>{{.Output}}</pre></details>
{{- else}}
<pre>{{.Output}}</pre>
{{- end}}
{{- end}}
{{- range .Calls}}
<details class="call"><summary>⚙ {{.Describe}}</summary>{{if .Args}}<pre>{{.Args}}</pre>{{end}}</details>
{{- end}}
</article>
{{- end}}
<footer>Exported by recall, {{.Generated}}.</footer>
</main>
</body>
</html>
`))
