package cli

import (
	"fmt"
	"strings"

	"github.com/recall-dev/recall/recall"
	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/ui/termtext"
)

type showJSON struct {
	sessionJSON
	Messages []messageJSON `json:"messages"`
}

func runShow(env *Env, c *Command, args []string) error {
	fs := newFlags(c, env)
	asJSON := fs.Bool("json", false, "print JSON (the stored text, byte for byte)")
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
	sess, err := resolveSession(env, st, fs.Arg(0))
	if err != nil {
		return err
	}
	msgs, err := st.Messages(env.Ctx, sess.ID)
	if err != nil {
		return err
	}
	if *asJSON {
		out := showJSON{sessionJSON: toSessionJSON(sess), Messages: make([]messageJSON, 0, len(msgs))}
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
		count += fmt.Sprintf(" (and %s the source rewrote, marked EARLIER VERSION)", plural(earlier, "earlier text", "earlier texts"))
	}
	fmt.Fprintf(env.Stdout, "%s\n%s · %s · %s · %s\n", title, displayID(sess.ID), field(sess.Source), field(sess.Model), count)
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
		if m.ToolCalls != "" {
			fmt.Fprintf(env.Stdout, "  tool calls: %s\n", termtext.Sanitize(m.ToolCalls))
		}
	}
	return nil
}
