package recall

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/recall-dev/recall/store"
)

// ExtractiveHeading is the first line of every offline summary, so it can
// never be mistaken for a model's.
const ExtractiveHeading = "Offline summary (no model configured)"

// Limits of an extractive summary's sections.
const (
	maxMatchedLines = 8
	maxCommands     = 8
	maxPaths        = 8
	maxURLs         = 5
	maxErrors       = 5
	maxLineChars    = 200
	maxConclusion   = 600
)

var (
	urlRE = regexp.MustCompile(`https?://[^\s<>"'` + "`" + `)\]]+`)
	// pathRE: absolute, ~ or ./ paths, or relative paths ending in an extension.
	pathRE = regexp.MustCompile(`(?:^|[\s"'(\[=:,` + "`" + `])((?:~|\.{1,2})?/[\w.@+\-]+(?:/[\w.@+\-]+)*/?|[\w.\-]+(?:/[\w.@+\-]+)+\.[A-Za-z0-9]{1,8})`)
	// inlineCodeRE finds `code spans` in prose.
	inlineCodeRE = regexp.MustCompile("`([^`\n]{3,200})`")
	// errorLineRE finds lines that report a failure the way programs do: an
	// error or fatal prefix, an exception name, a stack frame, a non-zero
	// exit, the messages of the usual system calls. Prose that talks about
	// an error ("the error is that…") is not one.
	errorLineRE = regexp.MustCompile(`(?i)(?:^|[\s:\[])(?:error|fatal|panic|fail(?:ed|ure)?|critical|err!?)(?:\[[^\]]*\])?:` +
		`|^(?:error|fatal|panic)\b|(?-i:\b[A-Z]\w*(?:Error|Exception)\b)` +
		`|^traceback \(most recent call last\)` +
		`|^\s*at \S+ \(.*:\d+(?::\d+)?\)$|^\s*File ".+", line \d+` +
		`|^goroutine \d+ \[|^--- FAIL:|^FAIL\b` +
		`|exit(?:ed)? (?:status|code)[ =]?[1-9]\d*|returned non-zero exit` +
		`|\b(?:no such file or directory|permission denied|connection refused|command not found|no such host|segmentation fault|out of memory|timed out)\b`)
	// headingRE is a markdown heading's hashes.
	headingRE = regexp.MustCompile(`^#{1,6}\s+`)
)

// extractiveSummary builds the offline summary of a session from the
// messages in its matched window: the lines that match the query, the
// commands run, the files and URLs mentioned, the error lines, and the last
// thing the assistant concluded. It reads, it never invents: every line is
// quoted from the transcript, named by where it is (pos: "#47 of 188").
// Quoted lines are cut where markdown allows (a code span or bold run is
// closed, a heading loses its hashes), so the summary renders as it reads.
//
// Lines are quoted from shown(messages), the messages as they may leave
// recall (secrets redacted), and cut only after: a key cut in half by a
// quote's edge is a key no rule can find. Only the messages the summary
// quotes are handed to shown, chosen from the text as stored (a message
// quoted nothing from as stored has nothing to quote once redacted).
func extractiveSummary(msgs []store.Message, terms []string, pos func(int64) string, shown func([]store.Message) []store.Message) string {
	conclusion := conclusionIndex(msgs, terms)
	var quoted []store.Message
	var found []extracted // what each quoted message gave, as stored
	at := -1              // the conclusion's place in quoted
	for i := range msgs {
		x := extract(&msgs[i], terms, pos)
		if i == conclusion || !x.empty() {
			if i == conclusion {
				at = len(quoted)
			}
			quoted, found = append(quoted, msgs[i]), append(found, x)
		}
	}
	raw := quoted
	if len(quoted) > 0 {
		quoted = shown(quoted)
	}
	var matched, commands, paths, urls, errs list
	matched.max, commands.max, paths.max, urls.max, errs.max = maxMatchedLines, maxCommands, maxPaths, maxURLs, maxErrors
	for i := range quoted {
		x := found[i]
		if quoted[i].Content != raw[i].Content || quoted[i].ToolCalls != raw[i].ToolCalls {
			x = extract(&quoted[i], terms, pos) // redaction changed it: read it again
		}
		matched.add(x.matched...)
		commands.add(x.commands...)
		paths.add(x.paths...)
		urls.add(x.urls...)
		errs.add(x.errs...)
	}

	var b strings.Builder
	b.WriteString(ExtractiveHeading)
	b.WriteString("\n")
	section := func(title string, l list) {
		if len(l.items) == 0 {
			return
		}
		fmt.Fprintf(&b, "\n%s:\n", title)
		for _, it := range l.items {
			b.WriteString("- " + it + "\n")
		}
	}
	section("Matched", matched)
	section("Commands", commands)
	section("Files and paths", paths)
	section("URLs", urls)
	section("Errors", errs)
	if at >= 0 {
		c := quoted[at]
		fmt.Fprintf(&b, "\nConclusion (assistant, %s):\n%s\n", pos(c.ID), clipMarkdown(strings.TrimSpace(c.Content), maxConclusion))
	}
	if len(matched.items)+len(commands.items)+len(paths.items)+len(urls.items)+len(errs.items) == 0 && at < 0 {
		b.WriteString("\nNothing to extract from the matched messages.\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

// conclusionIndex is the conclusion's index in msgs: the last assistant
// reply that matches the query, else the last assistant reply; -1 for none.
func conclusionIndex(msgs []store.Message, terms []string) int {
	conclusion, lastReply := -1, -1
	for i, m := range msgs {
		if m.Role == "assistant" && strings.TrimSpace(m.Content) != "" {
			lastReply = i
			if hasTerm(m.Content, terms) {
				conclusion = i
			}
		}
	}
	if conclusion < 0 {
		return lastReply
	}
	return conclusion
}

// extracted is what one message gives each section of a summary, in order.
type extracted struct {
	matched, commands, paths, urls, errs []string
}

func (x extracted) empty() bool {
	return len(x.matched)+len(x.commands)+len(x.paths)+len(x.urls)+len(x.errs) == 0
}

// extract reads one message's lines for the summary's sections.
func extract(m *store.Message, terms []string, pos func(int64) string) extracted {
	var x extracted
	content := m.Content
	if m.Role == "tool" {
		content = clipMiddle(content, toolClipAt, toolClipKeep)
	}
	for _, c := range toolCallCommands(m.ToolCalls) {
		x.commands = append(x.commands, codeSpan(clipRunes(c, maxLineChars)))
	}
	inFence, shellFence := false, false
	cont := "" // a shell line ending in \ continues on the next
	for _, line := range strings.Split(content, "\n") {
		trimmed := strings.TrimSpace(line)
		if shellFence && cont != "" {
			trimmed, cont = cont+" "+trimmed, ""
		}
		if shellFence && strings.HasSuffix(trimmed, "\\") && !strings.HasPrefix(trimmed, "```") {
			cont = strings.TrimSpace(strings.TrimSuffix(trimmed, "\\"))
			continue
		}
		if strings.HasPrefix(trimmed, "```") {
			inFence = !inFence
			lang := strings.ToLower(strings.TrimPrefix(trimmed, "```"))
			shellFence = inFence && (lang == "bash" || lang == "sh" || lang == "shell" || lang == "console" || lang == "zsh")
			continue
		}
		if trimmed == "" {
			continue
		}
		code := inFence || m.Role == "tool"
		switch {
		case strings.HasPrefix(trimmed, "$ "):
			x.commands = append(x.commands, codeSpan(clipRunes(strings.TrimPrefix(trimmed, "$ "), maxLineChars)))
		case shellFence && m.Role != "tool" && !strings.HasPrefix(trimmed, "#"):
			x.commands = append(x.commands, codeSpan(clipRunes(trimmed, maxLineChars)))
		}
		if hasTerm(trimmed, terms) {
			x.matched = append(x.matched, fmt.Sprintf("%s (%s): %s", pos(m.ID), Speaker(*m), quoteLine(trimmed, code, terms)))
		}
		if code && errorLineRE.MatchString(trimmed) {
			x.errs = append(x.errs, fmt.Sprintf("%s: %s", pos(m.ID), quoteLine(trimmed, true, nil)))
		}
		for _, u := range urlRE.FindAllString(trimmed, -1) {
			x.urls = append(x.urls, strings.TrimRight(u, ".,;:!?"))
		}
		for _, p := range pathRE.FindAllStringSubmatch(urlRE.ReplaceAllString(trimmed, " "), -1) {
			if p := strings.TrimRight(p[1], ".,;:"); isFilePath(p) {
				x.paths = append(x.paths, codeSpan(p))
			}
		}
	}
	if m.Role != "tool" {
		for _, c := range inlineCodeRE.FindAllStringSubmatch(content, -1) {
			if looksLikeCommand(c[1]) {
				x.commands = append(x.commands, codeSpan(clipRunes(c[1], maxLineChars)))
			}
		}
	}
	return x
}

// Positions names messages by where they are in their session ("#47 of
// 188"), which a reader can find by scrolling, rather than by database id.
// A message it does not know (the session could not be read whole) is named
// by its id.
func Positions(session []store.Message) func(id int64) string {
	at := make(map[int64]int, len(session))
	for i, m := range session {
		at[m.ID] = i + 1
	}
	return func(id int64) string {
		if n, ok := at[id]; ok {
			return fmt.Sprintf("#%d of %d", n, len(session))
		}
		return fmt.Sprintf("message id %d", id)
	}
}

// isFilePath reports whether a path-looking match names a file or a
// directory: two components at least (/etc/hosts), or one with an extension
// (/README.md), or relative to home or here. A lone "/db" is a container
// name docker printed, an "--name" argument, a URL's tail: not a path.
func isFilePath(p string) bool {
	switch {
	case len(p) <= 2:
		return false
	case strings.HasPrefix(p, "~/"), strings.HasPrefix(p, "./"), strings.HasPrefix(p, "../"):
		return true
	case strings.HasPrefix(p, "/"):
		rest := strings.Trim(p, "/")
		return strings.Contains(rest, "/") || strings.Contains(strings.TrimLeft(rest, "."), ".")
	}
	return true // relative with a directory and an extension (pathRE)
}

// quoteLine quotes one line of a message in a summary list item: a heading
// loses its hashes, a code or output line becomes a code span (its * and _
// are not emphasis), and the line is cut near the first match on a
// markdown boundary.
func quoteLine(line string, code bool, terms []string) string {
	if code && !strings.Contains(line, "`") {
		return codeSpan(clipAround(line, terms, maxLineChars))
	}
	line = headingRE.ReplaceAllString(line, "")
	out, openCode, openBold := clipWindow(line, terms, maxLineChars)
	// Reopen what the cut opened before the excerpt, then close what is open at its end.
	if openCode {
		out = "...`" + strings.TrimPrefix(out, "...")
	}
	if openBold && !openCode {
		out = "...**" + strings.TrimPrefix(out, "...")
	}
	if strings.HasSuffix(out, "`...") && strings.Count(out, "`")%2 == 1 {
		out = strings.TrimSuffix(out, "`...") + "..." // the cut took only a span's opening backtick
	}
	return balanceMarkdown(out)
}

// codeSpan is s as inline code, with a fence longer than any backtick run in it.
func codeSpan(s string) string {
	fence := "`"
	for strings.Contains(s, fence) {
		fence += "`"
	}
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		s = " " + s + " "
	}
	return fence + s + fence
}

// clipMarkdown clips prose to n characters and closes what the cut left open.
func clipMarkdown(s string, n int) string { return balanceMarkdown(clipRunes(s, n)) }

// balanceMarkdown closes a code span or a bold run that a cut left open, and
// a code fence, so a quoted excerpt cannot restyle what follows it.
func balanceMarkdown(s string) string {
	if strings.Count(s, "```")%2 == 1 {
		return s + "\n```"
	}
	if strings.Count(s, "`")%2 == 1 {
		s += "`"
	}
	if strings.Count(strings.ReplaceAll(s, "`", ""), "**")%2 == 1 {
		s += "**"
	}
	return s
}

// list collects unique items up to max.
type list struct {
	items []string
	seen  map[string]bool
	max   int
}

func (l *list) add(items ...string) {
	for _, s := range items {
		if len(l.items) >= l.max || s == "" || s == "``" {
			return
		}
		if l.seen == nil {
			l.seen = map[string]bool{}
		}
		if !l.seen[s] {
			l.seen[s] = true
			l.items = append(l.items, s)
		}
	}
}

// hasTerm reports whether s contains any of the (folded) terms.
func hasTerm(s string, terms []string) bool {
	if len(terms) == 0 {
		return false
	}
	low := foldString(s)
	for _, t := range terms {
		if strings.Contains(low, t) {
			return true
		}
	}
	return false
}

// clipAround clips s to n characters, keeping the first matched term in view.
func clipAround(s string, terms []string, n int) string {
	out, _, _ := clipWindow(s, terms, n)
	return out
}

// clipWindow is clipAround that also says which markdown runs the cut left
// open at its start: an inline code span (an odd number of backticks before
// the cut) or a bold run.
func clipWindow(s string, terms []string, n int) (out string, openCode, openBold bool) {
	r := []rune(s)
	if len(r) <= n {
		return s, false, false
	}
	low := []rune(foldString(s)) // same rune count as s
	at := 0
	for _, t := range terms {
		if k := strings.Index(string(low), t); k >= 0 {
			at = utf8.RuneCountInString(string(low)[:k])
			break
		}
	}
	start := max(0, min(at-n/4, len(r)-n))
	out = string(r[start : start+n])
	if start > 0 {
		before := string(r[:start])
		openCode = strings.Count(before, "`")%2 == 1
		openBold = strings.Count(strings.ReplaceAll(before, "`", ""), "**")%2 == 1
		out = "..." + out
	}
	if start+n < len(r) {
		out += "..."
	}
	return out, openCode, openBold
}

// clipRunes clips s to n characters with an ellipsis.
func clipRunes(s string, n int) string { return clipRunesMark(s, n, "...") }

// toolCallCommands returns the shell commands in a tool_calls JSON list: the
// "command" or "cmd" argument, in OpenAI form (function.arguments, a JSON
// string) or flat (arguments or input as an object).
func toolCallCommands(raw string) []string {
	if raw == "" {
		return nil
	}
	var calls []struct {
		Function struct {
			Arguments json.RawMessage `json:"arguments"`
		} `json:"function"`
		Arguments json.RawMessage `json:"arguments"`
		Input     json.RawMessage `json:"input"`
	}
	if json.Unmarshal([]byte(raw), &calls) != nil {
		return nil
	}
	var out []string
	for _, c := range calls {
		for _, a := range []json.RawMessage{c.Function.Arguments, c.Arguments, c.Input} {
			if cmd := commandArg(a); cmd != "" {
				out = append(out, cmd)
				break
			}
		}
	}
	return out
}

// commandArg reads "command"/"cmd" from an arguments object, which may be
// encoded as a JSON string holding the object; a list is joined by spaces.
func commandArg(a json.RawMessage) string {
	if len(a) == 0 {
		return ""
	}
	var s string
	if json.Unmarshal(a, &s) == nil {
		a = json.RawMessage(s)
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(a, &obj) != nil {
		return ""
	}
	for _, k := range []string{"command", "cmd"} {
		v, ok := obj[k]
		if !ok {
			continue
		}
		var str string
		if json.Unmarshal(v, &str) == nil {
			return strings.TrimSpace(str)
		}
		var parts []string
		if json.Unmarshal(v, &parts) == nil {
			return strings.Join(parts, " ")
		}
	}
	return ""
}

// commandWords start the inline code spans taken for shell commands.
var commandWords = map[string]bool{
	"apt": true, "brew": true, "cargo": true, "cat": true, "cd": true, "chmod": true, "cp": true, "curl": true,
	"docker": true, "git": true, "go": true, "grep": true, "helm": true, "kubectl": true, "ls": true, "make": true,
	"mkdir": true, "mv": true, "npm": true, "npx": true, "pip": true, "pnpm": true, "psql": true, "python": true,
	"python3": true, "rm": true, "ssh": true, "sudo": true, "systemctl": true, "terraform": true, "uv": true, "yarn": true,
}

// looksLikeCommand reports whether an inline code span is a shell command:
// several words, the first a common command.
func looksLikeCommand(s string) bool {
	first, rest, ok := strings.Cut(strings.TrimSpace(s), " ")
	return ok && rest != "" && commandWords[first]
}
