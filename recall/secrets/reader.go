package secrets

import (
	"context"
	"sync/atomic"

	"github.com/recall-dev/recall/store"
)

// Source is the store's read side: *store.Store satisfies it. Its text
// leaves recall only through a Reader.
type Source interface {
	Session(ctx context.Context, id string) (store.Session, error)
	SessionByTitle(ctx context.Context, title string) (store.Session, error)
	SessionsByPrefix(ctx context.Context, prefix string, limit int) ([]store.Session, error)
	Messages(ctx context.Context, sessionID string) ([]store.Message, error)
	MessagesAround(ctx context.Context, sessionID string, anchor int64, window int) ([]store.Message, int, int, error)
	Bookends(ctx context.Context, sessionID string, minID, maxID int64, n int) ([]store.Message, []store.Message, error)
	RecentSessions(ctx context.Context, o store.ListOptions) ([]store.SessionSummary, error)
	SearchMessages(ctx context.Context, query string, f store.SearchFilter) (store.SearchResult, error)
	MessagesByID(ctx context.Context, ids []int64) (map[int64]store.Message, error)
	FirstPrompts(ctx context.Context, ids []string) (map[string]string, error)

	// Reads that return no text pass through.
	ResolveSessionID(ctx context.Context, prefix string) (string, error)
	ShortIDs(ctx context.Context, ids []string) (map[string]string, error)
	RootSession(ctx context.Context, id string) (string, error)
	RootSessions(ctx context.Context, ids []string) (map[string]string, error)
	Children(ctx context.Context, id string) ([]string, error)
	MessageIDs(ctx context.Context, sessionID string) ([]int64, error)
	Sources(ctx context.Context) ([]string, error)
	ChangeToken(ctx context.Context) (string, error)
	RunningImport(ctx context.Context) (store.ImportProgress, bool, error)
}

// Reader is the store's read side as it leaves recall: every session,
// message, hit and list row it returns has its text redacted (the stored
// rows are never touched). It has the store's read methods, so a command,
// a TUI pane or a tool built on a Reader cannot show a secret by
// forgetting to redact one.
type Reader struct {
	src      Source
	asStored bool
	replaced atomic.Int64
}

// Redacted returns the Reader every output uses by default.
func Redacted(src Source) *Reader { return &Reader{src: src} }

// AsStored returns a Reader that keeps the text as stored: only for a
// person who asked to see their secrets on their own terminal (the TUI's
// V, --show-secrets), never for text bound for a model.
func AsStored(src Source) *Reader { return &Reader{src: src, asStored: true} }

// ReaderFor is AsStored when showSecrets is set, else Redacted.
func ReaderFor(src Source, showSecrets bool) *Reader {
	return &Reader{src: src, asStored: showSecrets}
}

// Replaced is how many secrets the Reader's sessions and messages have
// had replaced so far (for a command's "N secrets redacted" note).
func (r *Reader) Replaced() int { return int(r.replaced.Load()) }

// Session reads a session.
func (r *Reader) Session(ctx context.Context, id string) (store.Session, error) {
	s, err := r.src.Session(ctx, id)
	return r.session(s), err
}

// SessionByTitle reads the session with this title.
func (r *Reader) SessionByTitle(ctx context.Context, title string) (store.Session, error) {
	s, err := r.src.SessionByTitle(ctx, title)
	return r.session(s), err
}

// SessionsByPrefix lists sessions whose id starts with prefix.
func (r *Reader) SessionsByPrefix(ctx context.Context, prefix string, limit int) ([]store.Session, error) {
	list, err := r.src.SessionsByPrefix(ctx, prefix, limit)
	if !r.asStored {
		for i := range list {
			list[i] = Session(list[i])
		}
	}
	return list, err
}

// Messages reads a session's messages, redacted together (a Set).
func (r *Reader) Messages(ctx context.Context, sessionID string) ([]store.Message, error) {
	msgs, err := r.src.Messages(ctx, sessionID)
	return r.messages(msgs), err
}

// MessagesAround reads the messages around one, redacted together.
func (r *Reader) MessagesAround(ctx context.Context, sessionID string, anchor int64, window int) ([]store.Message, int, int, error) {
	msgs, before, after, err := r.src.MessagesAround(ctx, sessionID, anchor, window)
	return r.messages(msgs), before, after, err
}

// Bookends reads a session's first and last messages, redacted together.
func (r *Reader) Bookends(ctx context.Context, sessionID string, minID, maxID int64, n int) ([]store.Message, []store.Message, error) {
	start, end, err := r.src.Bookends(ctx, sessionID, minID, maxID, n)
	if err != nil {
		return nil, nil, err
	}
	if r.asStored {
		return start, end, nil
	}
	both := r.messages(append(append([]store.Message{}, start...), end...))
	return both[:len(start)], both[len(start):], nil
}

// MessagesByID reads messages by id, redacted together, keyed by id.
func (r *Reader) MessagesByID(ctx context.Context, ids []int64) (map[int64]store.Message, error) {
	byID, err := r.src.MessagesByID(ctx, ids)
	if r.asStored || err != nil {
		return byID, err
	}
	msgs := make([]store.Message, 0, len(byID))
	for _, id := range ids {
		if m, ok := byID[id]; ok {
			msgs = append(msgs, m)
		}
	}
	for _, m := range r.messages(msgs) {
		byID[m.ID] = m
	}
	return byID, nil
}

// RecentSessions lists sessions. A preview cut from a first prompt is cut
// again from the redacted prompt, so no part of a secret is left at its end.
func (r *Reader) RecentSessions(ctx context.Context, o store.ListOptions) ([]store.SessionSummary, error) {
	list, err := r.src.RecentSessions(ctx, o)
	if r.asStored || err != nil {
		return list, err
	}
	return Listings(ctx, list, r.src.FirstPrompts)
}

// SearchMessages searches. Each hit's snippet is redacted against the
// whole message it was cut from, and its session title with it.
func (r *Reader) SearchMessages(ctx context.Context, query string, f store.SearchFilter) (store.SearchResult, error) {
	res, err := r.src.SearchMessages(ctx, query, f)
	if r.asStored || err != nil {
		return res, err
	}
	res.Hits, err = r.hits(ctx, res.Hits)
	return res, err
}

// hits redacts hits (a copy), reading the messages of those with a snippet.
func (r *Reader) hits(ctx context.Context, hits []store.Hit) ([]store.Hit, error) {
	var ids []int64
	for _, h := range hits {
		if h.Snippet != "" {
			ids = append(ids, h.MessageID)
		}
	}
	var whole map[int64]store.Message
	if len(ids) > 0 {
		var err error
		if whole, err = r.src.MessagesByID(ctx, ids); err != nil {
			return nil, err
		}
	}
	out := make([]store.Hit, len(hits))
	for i, h := range hits {
		out[i] = Hit(h, whole[h.MessageID])
	}
	return out, nil
}

func (r *Reader) session(s store.Session) store.Session {
	if r.asStored {
		return s
	}
	s, n := SessionCount(s)
	r.replaced.Add(int64(n))
	return s
}

func (r *Reader) messages(msgs []store.Message) []store.Message {
	if r.asStored {
		return msgs
	}
	msgs, n := MessagesCount(msgs)
	r.replaced.Add(int64(n))
	return msgs
}

// ResolveSessionID resolves an id, unique prefix or native id.
func (r *Reader) ResolveSessionID(ctx context.Context, prefix string) (string, error) {
	return r.src.ResolveSessionID(ctx, prefix)
}

// ShortIDs are the ids shown to people for stored ids (store.Store.ShortIDs).
func (r *Reader) ShortIDs(ctx context.Context, ids []string) (map[string]string, error) {
	return r.src.ShortIDs(ctx, ids)
}

// RootSession is a session's lineage root.
func (r *Reader) RootSession(ctx context.Context, id string) (string, error) {
	return r.src.RootSession(ctx, id)
}

// RootSessions are the lineage roots of several sessions.
func (r *Reader) RootSessions(ctx context.Context, ids []string) (map[string]string, error) {
	return r.src.RootSessions(ctx, ids)
}

// Children lists a session's children.
func (r *Reader) Children(ctx context.Context, id string) ([]string, error) {
	return r.src.Children(ctx, id)
}

// MessageIDs lists a session's message ids in order.
func (r *Reader) MessageIDs(ctx context.Context, sessionID string) ([]int64, error) {
	return r.src.MessageIDs(ctx, sessionID)
}

// Sources lists the sources the database holds.
func (r *Reader) Sources(ctx context.Context) ([]string, error) { return r.src.Sources(ctx) }

// ChangeToken changes whenever another process writes sessions or messages.
func (r *Reader) ChangeToken(ctx context.Context) (string, error) { return r.src.ChangeToken(ctx) }

// RunningImport is the progress of an import another process is running.
func (r *Reader) RunningImport(ctx context.Context) (store.ImportProgress, bool, error) {
	return r.src.RunningImport(ctx)
}

// SourceGone lists the sessions whose source files are gone, when the
// store keeps that (nil otherwise).
func (r *Reader) SourceGone(ctx context.Context) (map[string]bool, error) {
	if g, ok := r.src.(interface {
		SourceGone(ctx context.Context) (map[string]bool, error)
	}); ok {
		return g.SourceGone(ctx)
	}
	return nil, nil
}
