package cli

import (
	"errors"
	"fmt"
	"strings"

	"github.com/recall-dev/recall/ui/termtext"

	"github.com/recall-dev/recall/store"
)

type showJSON struct {
	sessionJSON
	Messages []messageJSON `json:"messages"`
}

func runShow(env *Env, c *Command, args []string) error {
	fs := newFlags(c, env)
	asJSON := fs.Bool("json", false, "print JSON")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usageError("exactly one SESSION_ID is required")
	}
	st, err := env.openForRead()
	if err != nil {
		return err
	}
	defer st.Close()
	id, err := st.ResolveSessionID(env.Ctx, fs.Arg(0))
	if err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return fmt.Errorf("no session with id %q", fs.Arg(0))
		}
		return err
	}
	sess, err := st.Session(env.Ctx, id)
	if err != nil {
		return err
	}
	msgs, err := st.Messages(env.Ctx, id)
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
	title := sess.Title
	if title == "" {
		title = "(untitled)"
	}
	fmt.Fprintf(env.Stdout, "%s\n%s · %s · %s · %d messages\n", termtext.Sanitize(title), sess.ID, sess.Source, sess.Model, len(msgs))
	for _, m := range msgs {
		label := strings.ToUpper(m.Role)
		if m.ToolName != "" {
			label += ":" + m.ToolName
		}
		fmt.Fprintf(env.Stdout, "\n#%d [%s] %s\n%s\n", m.ID, label, m.Timestamp.Local().Format("2006-01-02 15:04:05"), termtext.Sanitize(m.Content))
		if m.ToolCalls != "" {
			fmt.Fprintf(env.Stdout, "  tool calls: %s\n", termtext.Sanitize(m.ToolCalls))
		}
	}
	return nil
}
