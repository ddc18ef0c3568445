package cli

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/recall-dev/recall/recall"
	"github.com/recall-dev/recall/recall/secrets"
	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/ui/termtext"
)

// sessionWindow is how many messages either side of --around the text
// output shows.
const sessionWindow = 5

// aroundID reads --around for the JSON answer: a message id, or #N for
// the session's Nth message.
func aroundID(env *Env, st *secrets.Reader, session, around string) (int64, error) {
	var ids []int64
	if strings.HasPrefix(around, "#") {
		sess, err := resolveSession(env, st, session)
		if err != nil {
			return 0, err
		}
		if ids, err = st.MessageIDs(env.Ctx, sess.ID); err != nil {
			return 0, err
		}
	}
	return parseAround(around, ids)
}

// parseAround reads --around against the session's message ids: a message
// id, or #N for the Nth of ids (0 when around is empty).
func parseAround(around string, ids []int64) (int64, error) {
	if around == "" {
		return 0, nil
	}
	if n, ok := strings.CutPrefix(around, "#"); ok {
		pos, err := strconv.Atoi(n)
		if err != nil || pos < 1 {
			return 0, usageError("--around %q: want a message id, or #N for the Nth message", around)
		}
		if pos > len(ids) {
			return 0, usageError("--around %s: the session has %s", around, plural(len(ids), "message", "messages"))
		}
		return ids[pos-1], nil
	}
	id, err := strconv.ParseInt(around, 10, 64)
	if err != nil || id < 1 {
		return 0, usageError("--around %q: want a message id, or #N for the Nth message", around)
	}
	return id, nil
}

// printSessionWindow is `recall search --session ID [--around N]` for a
// person: the messages around one (or the session's head and tail), each
// named by its place in the session and fitted to the terminal.
func printSessionWindow(env *Env, st *secrets.Reader, session, aroundArg string) error {
	sess, err := resolveSession(env, st, session)
	if err != nil {
		return err
	}
	ids, err := st.MessageIDs(env.Ctx, sess.ID)
	if err != nil {
		return err
	}
	around, err := parseAround(aroundArg, ids)
	if err != nil {
		return err
	}
	var msgs []store.Message
	if around != 0 {
		if !containsID(ids, around) {
			return usageError("--around %d is not a message of session %s (use a match_message_id or messages[].id from --json, or #N)", around, displayID(sess.ID))
		}
		if msgs, _, _, err = st.MessagesAround(env.Ctx, sess.ID, around, sessionWindow); err != nil {
			return err
		}
	} else if msgs, err = st.Messages(env.Ctx, sess.ID); err != nil {
		return err
	}
	pos, width := positionsOf(ids), env.termWidth()
	fmt.Fprintln(env.Stdout, fitLine(fmt.Sprintf("%s · %s · %s · %s", field(titleOr(sess.Title)), field(sess.Source),
		plural(len(ids), "message", "messages"), displayID(sess.ID)), width))
	for _, m := range msgs {
		mark := "  "
		if m.ID == around {
			mark = "> "
		}
		fmt.Fprintln(env.Stdout, fitLine(fmt.Sprintf("%s%s %s %s: %s", mark, pos(m.ID), humanTime(m.Timestamp), field(recall.Speaker(m)),
			termtext.Line(recall.ReadableText(m), width)), width))
	}
	return nil
}

func containsID(ids []int64, id int64) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}
