package cli

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"golang.org/x/term"

	"github.com/recall-dev/recall/recall/secrets"
	"github.com/recall-dev/recall/store"
)

// runForget is `recall forget SESSION_ID... | --match QUERY`: delete for
// good, after a confirmation (y/N on a terminal, --yes in a script).
func runForget(env *Env, c *Command, args []string) error {
	fs := newFlags(c, env)
	match := fs.String("match", "", "forget every message that matches this query (instead of whole sessions)")
	yes := fs.Bool("yes", false, "do not ask for confirmation (scripts)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if (*match == "") == (fs.NArg() == 0) {
		return usageError("give SESSION_ID... or --match QUERY (one of them)")
	}
	st, err := env.Open(store.Options{})
	if err != nil {
		return err
	}
	defer st.Close()

	var sessions []string
	var messages []int64
	var what string
	if *match != "" {
		perSession := map[string]int{}
		for offset := 0; ; offset += 1000 {
			// Only the hits' ids and sessions are used (nothing of their
			// text is shown): the store's own search, not a Reader's.
			res, err := st.SearchMessages(env.Ctx, *match, store.SearchFilter{Limit: 1000, Offset: offset, Sort: store.SortOldest})
			if err != nil {
				return err
			}
			for _, h := range res.Hits {
				messages = append(messages, h.MessageID)
				perSession[h.SessionID]++
			}
			if len(res.Hits) < 1000 {
				break
			}
		}
		if len(messages) == 0 {
			fmt.Fprintf(env.Stdout, "no message matches %s: nothing to forget\n", field(*match))
			return nil
		}
		ids := make([]string, 0, len(perSession))
		for id := range perSession {
			ids = append(ids, id)
		}
		sort.Strings(ids)
		var b strings.Builder
		fmt.Fprintf(&b, "%d messages matching %s, in %d sessions:\n", len(messages), field(*match), len(ids))
		for i, id := range ids {
			if i == 10 {
				fmt.Fprintf(&b, "  … and %d more sessions\n", len(ids)-10)
				break
			}
			fmt.Fprintf(&b, "  %s: %d messages\n", displayID(id), perSession[id])
		}
		what = b.String()
	} else {
		var b strings.Builder
		for _, arg := range fs.Args() {
			sess, err := resolveSession(env, secrets.Redacted(st), arg)
			if err != nil {
				return err
			}
			sessions = append(sessions, sess.ID)
			title := field(sess.Title)
			if title == "" {
				title = "(untitled)"
			}
			fmt.Fprintf(&b, "  %s · %s · %s · %d messages\n", displayID(sess.ID), field(sess.Source), title, sess.MessageCount)
		}
		what = fmt.Sprintf("%d sessions:\n%s", len(sessions), b.String())
	}

	if !*yes {
		ok, err := confirm(env, "forget deletes for good", "Forget "+what+"This deletes them from the database for good; a re-import will not bring them back. Forget? [y/N] ")
		if err != nil {
			return err
		}
		if !ok {
			fmt.Fprintln(env.Stderr, "recall: nothing forgotten")
			return nil
		}
	}
	res, err := st.Forget(env.Ctx, sessions, messages, store.ForgetOptions{Text: *match})
	if err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "forgot %s and %s; a re-import, or a copy under another session id, will not bring them back\n",
		plural(res.Sessions, "session", "sessions"), plural(res.Messages, "message", "messages"))
	if res.Titles > 0 {
		fmt.Fprintf(env.Stdout, "cleared %s that held the forgotten text (each session is named by its first prompt now)\n", plural(res.Titles, "title", "titles"))
	}
	if res.Left > 0 {
		return fmt.Errorf("the database file still holds %s of the forgotten text (another recall process may hold an old snapshot: close it and run the same forget again)", plural(res.Left, "copy", "copies"))
	}
	if *match != "" || res.Titles > 0 {
		fmt.Fprintln(env.Stdout, "checked the database file: the forgotten text is nowhere in it")
	}
	return nil
}

// confirm asks a y/N question on stderr and reads the answer from a
// terminal on stdin; without a terminal it refuses, so a script must say --yes.
func confirm(env *Env, what, question string) (bool, error) {
	f, ok := env.Stdin.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return false, usageError("%s: confirm with --yes (stdin is not a terminal to ask on)", what)
	}
	fmt.Fprint(env.Stderr, question)
	line, err := bufio.NewReader(f).ReadString('\n')
	if err != nil && err != io.EOF {
		return false, err
	}
	a := strings.ToLower(strings.TrimSpace(line))
	return a == "y" || a == "yes", nil
}
