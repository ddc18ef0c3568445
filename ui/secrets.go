package ui

import (
	"github.com/recall-dev/recall/recall/secrets"
	"github.com/recall-dev/recall/store"
)

// shownMessages is a session as the TUI shows and exports it: every API
// key, token and password gitleaks' rules find replaced by
// [REDACTED:rule], unless the person revealed them (V). The stored rows
// are not touched: the copies are redacted.
func shownMessages(sess store.Session, msgs []store.Message, reveal bool) (store.Session, []store.Message) {
	if reveal {
		return sess, msgs
	}
	r, err := secrets.New()
	if err != nil { // the rules are compiled in: cannot happen; show nothing rather than secrets
		return sess, nil
	}
	out := append([]store.Message(nil), msgs...)
	r.Walk(&sess)
	r.Walk(out)
	return sess, out
}
