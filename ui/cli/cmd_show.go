package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/recall-dev/recall/recall"
	"github.com/recall-dev/recall/recall/secrets"
	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/ui/termtext"
)

// showJSON is `recall show --json`: export --format json's shape,
// {"session": {...}, "messages": [...]}, with the session's fields also at
// the top level, where they were before the two were made one (kept for
// the scripts that read them there).
type showJSON struct {
	sessionJSON
	Session  sessionJSON   `json:"session"`
	Messages []messageJSON `json:"messages"`
}

func runShow(env *Env, c *Command, args []string) error {
	fs := newFlags(c, env)
	asJSON := fs.Bool("json", false, "print JSON (the stored text, byte for byte, secrets redacted)")
	showSecrets := fs.Bool("show-secrets", false, "keep API keys, tokens and passwords as stored (by default each is replaced by [REDACTED:rule])")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usageError("one SESSION_ID is required (a unique prefix will do), got %d", fs.NArg())
	}
	st, err := env.openForRead()
	if err != nil {
		return err
	}
	defer st.Close()
	view := secrets.ReaderFor(st, *showSecrets)
	sess, err := resolveSession(env, view, fs.Arg(0))
	if err != nil {
		return err
	}
	msgs, err := view.Messages(env.Ctx, sess.ID)
	if err != nil {
		return err
	}
	if *asJSON {
		out := showJSON{sessionJSON: toSessionJSON(sess), Session: toSessionJSON(sess), Messages: make([]messageJSON, 0, len(msgs))}
		for _, m := range msgs {
			out.Messages = append(out.Messages, toMessageJSON(m))
		}
		return printJSON(env.Stdout, out)
	}
	// Text output is for a person: every stored field is sanitised (a
	// transcript may hold escape sequences), ids are printed typeable.
	first := ""
	for _, m := range msgs {
		if m.Prompt() && strings.TrimSpace(m.Content) != "" {
			first = m.Content
			break
		}
	}
	title := field(recall.SessionName(sess.Title, first))
	if title == "" {
		title = "(untitled)"
	}
	compacted, earlier := 0, 0
	for _, m := range msgs {
		switch {
		case m.DisplayKind == store.DisplayKindEarlier:
			earlier++
		case m.Compacted:
			compacted++
		}
	}
	count := plural(len(msgs)-compacted-earlier, "message", "messages")
	if compacted > 0 {
		count += fmt.Sprintf(" (and %d compacted into a summary, marked COMPACTED)", compacted)
	}
	if earlier > 0 {
		count += fmt.Sprintf(" (and %s the source rewrote or took back, marked EARLIER VERSION)", plural(earlier, "earlier text", "earlier texts"))
	}
	// Blank fields are left out, never shown as "toolA ·  ·".
	head := []string{displayID(sess.ID)}
	for _, f := range []string{field(sess.Source), field(sess.Model)} {
		if strings.TrimSpace(f) != "" {
			head = append(head, f)
		}
	}
	fmt.Fprintf(env.Stdout, "%s\n%s\n", title, strings.Join(append(head, count), " · "))
	for i, m := range msgs {
		label := strings.ToUpper(field(recall.Speaker(m)))
		if m.ToolName != "" {
			label += ":" + field(m.ToolName)
		}
		switch {
		case m.DisplayKind == store.DisplayKindEarlier:
			label += " · EARLIER VERSION"
		case m.Compacted:
			label += " · COMPACTED"
		}
		// Named by its place in the session, as everywhere a person reads;
		// the id is in --json.
		fmt.Fprintf(env.Stdout, "\n#%d of %d [%s] %s\n%s\n", i+1, len(msgs), label, humanTime(m.Timestamp), termtext.Sanitize(m.Content))
		if m.ToolCalls != "" && m.ToolCalls != "[]" {
			printToolCalls(env.Stdout, m.ToolCalls)
		}
	}
	return nil
}

// printToolCalls prints a message's tool calls as a person reads them:
// "⚙ NAME", then each argument on its own indented line with its strings
// decoded (recall.ToolCall.ReadableArgs); a list that is not JSON as stored.
func printToolCalls(w io.Writer, raw string) {
	calls, ok := recall.ParseToolCalls(raw)
	if !ok {
		fmt.Fprintf(w, "  tool calls: %s\n", termtext.Sanitize(raw))
		return
	}
	for _, c := range calls {
		fmt.Fprintf(w, "  ⚙ %s\n", field(c.Name))
		if args := c.ReadableArgs(); args != "" && args != "{}" {
			for _, l := range strings.Split(termtext.Sanitize(args), "\n") {
				fmt.Fprintf(w, "      %s\n", l)
			}
		}
	}
}
