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
	// errorRE finds lines that report a failure.
	errorRE = regexp.MustCompile(`(?i)\b(error|exception|traceback|failed|failure|fatal|panic|denied|refused|not found|cannot|can't)\b`)
)

// extractiveSummary builds the offline summary of a session from the
// messages in its matched window: the lines that match the query, the
// commands run, the paths, URLs and error messages mentioned, and the last
// thing the assistant concluded. It reads, it never invents: every line is
// quoted from the transcript with its message id.
func extractiveSummary(msgs []store.Message, terms []string) string {
	var matched, commands, paths, urls, errs list
	matched.max, commands.max, paths.max, urls.max, errs.max = maxMatchedLines, maxCommands, maxPaths, maxURLs, maxErrors
	// The conclusion is the last assistant reply that matches the query, else
	// the window's last assistant reply.
	var conclusion, lastReply *store.Message
	for i := range msgs {
		m := &msgs[i]
		content := m.Content
		if m.Role == "tool" {
			content = clipMiddle(content, toolClipAt, toolClipKeep)
		}
		for _, c := range toolCallCommands(m.ToolCalls) {
			commands.add("`" + clipRunes(c, maxLineChars) + "`")
		}
		inFence, shellFence := false, false
		for _, line := range strings.Split(content, "\n") {
			trimmed := strings.TrimSpace(line)
			if strings.HasPrefix(trimmed, "```") {
				inFence = !inFence
				lang := strings.ToLower(strings.TrimPrefix(trimmed, "```"))
				shellFence = inFence && (lang == "bash" || lang == "sh" || lang == "shell" || lang == "console" || lang == "zsh")
				continue
			}
			if trimmed == "" {
				continue
			}
			switch {
			case strings.HasPrefix(trimmed, "$ "):
				commands.add("`" + clipRunes(strings.TrimPrefix(trimmed, "$ "), maxLineChars) + "`")
			case shellFence && m.Role != "tool" && !strings.HasPrefix(trimmed, "#"):
				commands.add("`" + clipRunes(trimmed, maxLineChars) + "`")
			}
			if hasTerm(trimmed, terms) {
				matched.add(fmt.Sprintf("#%d %s: %s", m.ID, m.Role, clipAround(trimmed, terms, maxLineChars)))
			}
			if errorRE.MatchString(trimmed) && m.Role != "user" {
				errs.add(fmt.Sprintf("#%d: %s", m.ID, clipRunes(trimmed, maxLineChars)))
			}
			for _, u := range urlRE.FindAllString(trimmed, -1) {
				urls.add(strings.TrimRight(u, ".,;:!?"))
			}
			for _, p := range pathRE.FindAllStringSubmatch(urlRE.ReplaceAllString(trimmed, " "), -1) {
				if len(p[1]) > 2 {
					paths.add(strings.TrimRight(p[1], ".,;:"))
				}
			}
		}
		if m.Role == "assistant" && strings.TrimSpace(m.Content) != "" {
			lastReply = m
			if hasTerm(m.Content, terms) {
				conclusion = m
			}
		}
		if m.Role != "tool" {
			for _, c := range inlineCodeRE.FindAllStringSubmatch(content, -1) {
				if looksLikeCommand(c[1]) {
					commands.add("`" + clipRunes(c[1], maxLineChars) + "`")
				}
			}
		}
	}
	if conclusion == nil {
		conclusion = lastReply
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
	if conclusion != nil {
		fmt.Fprintf(&b, "\nConclusion (assistant, #%d):\n%s\n", conclusion.ID, clipRunes(strings.TrimSpace(conclusion.Content), maxConclusion))
	}
	if len(matched.items)+len(commands.items)+len(paths.items)+len(urls.items)+len(errs.items) == 0 && conclusion == nil {
		b.WriteString("\nNothing to extract from the matched messages.\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

// list collects unique items up to max.
type list struct {
	items []string
	seen  map[string]bool
	max   int
}

func (l *list) add(s string) {
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
	r := []rune(s)
	if len(r) <= n {
		return s
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
	out := string(r[start : start+n])
	if start > 0 {
		out = "..." + out
	}
	if start+n < len(r) {
		out += "..."
	}
	return out
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
