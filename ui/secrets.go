package ui

import (
	"github.com/recall-dev/recall/recall/secrets"
	"github.com/recall-dev/recall/store"
)

// shownMessages is a session as the TUI shows, copies, pages and exports
// it: every API key, token and password replaced by [REDACTED:rule]
// (recall/secrets, read as decoded: tool-call arguments included), unless
// the person revealed them (V). The stored rows are not touched: the
// copies are redacted. Lists, titles and snippets come redacted from
// recall's engine; this is the TUI's one hook for the transcripts it reads.
func shownMessages(sess store.Session, msgs []store.Message, reveal bool) (store.Session, []store.Message) {
	if reveal {
		return sess, msgs
	}
	return secrets.Session(sess), secrets.Messages(msgs)
}
