package sessionsearch

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/recall-dev/recall/recall"
	"github.com/recall-dev/recall/store"
)

// discover finds the best session of each lineage for the query.
func (t *Tool) discover(ctx context.Context, req Request) (*Discover, error) {
	current, _, err := t.currentRoot(ctx, req.CurrentSessionID)
	if err != nil {
		return nil, err
	}
	proj := newProjection(req.Fields)
	d, err := t.engine(req).Discover(ctx, req.Query, recall.DiscoverOptions{
		Limit:            clamp(req.Limit, DefaultLimit, 1, MaxLimit),
		CurrentSessionID: current,
		Filter:           store.SearchFilter{Roles: req.Roles, Sort: req.Sort},
		// Evidence is three reads per session: skip them when --fields asks for none of it.
		SkipEvidence: !proj.wantsAny(evidenceFields...),
	})
	if err != nil {
		return nil, err
	}
	var sums []recall.Summary
	if req.Summary != SummaryNone && len(d.Results) > 0 && proj.wantsAny(summaryFields...) {
		sums = t.summaries(ctx, req, d.Results)
	}
	return discoverEnvelope(d, sums), nil
}

// Browse lists the most recent sessions (newest first), leaving out the
// current session's lineage and hidden sources, as the browse shape does;
// their text redacted unless showSecrets.
func (t *Tool) Browse(ctx context.Context, limit int, currentSessionID string, showSecrets bool) ([]store.SessionSummary, error) {
	limit = clamp(limit, DefaultLimit, 1, MaxLimit)
	current, root, err := t.currentRoot(ctx, currentSessionID)
	if err != nil {
		return nil, err
	}
	// A few extra rows, as Hermes asks for, so dropping the current
	// session still fills the page. Only roots are listed, so leaving out
	// the current root leaves out its whole lineage.
	list, err := t.engine(Request{ShowSecrets: showSecrets}).Browse(ctx, store.ListOptions{Limit: limit + 5})
	if err != nil {
		return nil, err
	}
	kept := list[:0]
	for _, s := range list {
		if current != "" && (s.ID == current || s.ID == root) {
			continue
		}
		if len(kept) < limit {
			kept = append(kept, s)
		}
	}
	return kept, nil
}

func (t *Tool) browse(ctx context.Context, req Request) (*Browse, error) {
	list, err := t.Browse(ctx, req.Limit, req.CurrentSessionID, req.ShowSecrets)
	if err != nil {
		return nil, err
	}
	return browseEnvelope(list), nil
}

// scroll returns the messages around one message of a session.
func (t *Tool) scroll(ctx context.Context, req Request) (*Scroll, error) {
	sid, err := t.resolveSession(ctx, req.SessionID)
	if err != nil {
		return nil, err
	}
	_, currentRoot, err := t.currentRoot(ctx, req.CurrentSessionID)
	if err != nil {
		return nil, err
	}
	root, err := t.st.RootSession(ctx, sid)
	if err != nil {
		return nil, fmt.Errorf("resolve lineage of %s: %w", sid, err)
	}
	if currentRoot != "" && root == currentRoot {
		return nil, callerErrorf("scroll rejected: anchor lives in the current session lineage (already in your active context)")
	}
	window := clamp(req.Window, DefaultWindow, 1, MaxWindow)
	anchor := req.AroundMessageID
	view := t.reader(req)
	msgs, before, after, err := view.MessagesAround(ctx, sid, anchor, window)
	warning := ""
	if errors.Is(err, store.ErrNotFound) {
		// The anchor may live in another session of the lineage (a
		// compression continuation or a delegate): Hermes rebinds to it.
		var holder, parent string
		holder, parent, err = t.lineageHolder(ctx, root, sid, anchor)
		if err != nil {
			return nil, err
		}
		if holder == "" {
			return nil, callerErrorf("around_message_id %d not in session_id %s (use a message id from that session's results, e.g. match_message_id or messages[].id)", anchor, sid)
		}
		msgs, before, after, err = view.MessagesAround(ctx, holder, anchor, window)
		warning = fmt.Sprintf("around_message_id %d lives in %s (child of %s); rebound transparently", anchor, holder, parent)
		sid = holder
	}
	if err != nil {
		return nil, fmt.Errorf("read messages around %d: %w", anchor, err)
	}
	sess, err := view.Session(ctx, sid)
	if err != nil {
		return nil, fmt.Errorf("read session %s: %w", sid, err)
	}
	return &Scroll{Success: true, Mode: "scroll", SessionID: sid, AroundMessageID: anchor, SessionMeta: sessionMeta(sess),
		Window: window, Messages: messages(msgs, anchor), MessagesBefore: before, MessagesAfter: after, Warning: warning}, nil
}

// lineageHolder finds the session of root's lineage (other than skip) that
// holds message id, walking the lineage down from its root; "" when none.
func (t *Tool) lineageHolder(ctx context.Context, root, skip string, id int64) (holder, parent string, _ error) {
	type node struct{ id, parent string }
	queue := []node{{id: root}}
	seen := map[string]bool{}
	for len(queue) > 0 && len(seen) < 1000 {
		n := queue[0]
		queue = queue[1:]
		if seen[n.id] {
			continue
		}
		seen[n.id] = true
		if n.id != skip {
			_, _, _, err := t.st.MessagesAround(ctx, n.id, id, 0) // whether it holds id: no text kept
			if err == nil {
				return n.id, n.parent, nil
			}
			if !errors.Is(err, store.ErrNotFound) {
				return "", "", err
			}
		}
		kids, err := t.st.Children(ctx, n.id)
		if err != nil {
			return "", "", fmt.Errorf("list children of %s: %w", n.id, err)
		}
		for _, k := range kids {
			queue = append(queue, node{id: k, parent: n.id})
		}
	}
	return "", "", nil
}

// read returns a session's first ReadHead and last ReadTail messages.
func (t *Tool) read(ctx context.Context, req Request) (*Read, error) {
	sid, err := t.resolveSession(ctx, req.SessionID)
	if err != nil {
		return nil, err
	}
	view := t.reader(req)
	sess, err := view.Session(ctx, sid)
	if err != nil {
		return nil, fmt.Errorf("read session %s: %w", sid, err)
	}
	// Only the messages shown are read (and redacted): the head and tail.
	ids, err := view.MessageIDs(ctx, sid)
	if err != nil {
		return nil, err
	}
	env := &Read{Success: true, Mode: "read", SessionID: sid, SessionMeta: sessionMeta(sess), MessageCount: len(ids)}
	if n := len(ids); n > ReadHead+ReadTail {
		env.Truncated = true
		env.Message = fmt.Sprintf("Session has %d messages; showing first %d + last %d. Pass around_message_id (any id above) to scroll the middle.", n, ReadHead, ReadTail)
		ids = append(slices.Clip(ids[:ReadHead]), ids[n-ReadTail:]...)
	}
	byID, err := view.MessagesByID(ctx, ids)
	if err != nil {
		return nil, err
	}
	msgs := make([]store.Message, 0, len(ids))
	for _, id := range ids {
		if m, ok := byID[id]; ok {
			msgs = append(msgs, m)
		}
	}
	env.Messages = messages(msgs, 0)
	return env, nil
}
