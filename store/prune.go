package store

// DeleteSessionIfEmpty removes the session id when nothing refers to it any
// more: it has no messages and no child sessions. An importer calls it for
// a session a file produced before and no longer produces (its id was
// derived differently), so that no empty row is left behind in the lists.
// It reports whether the row went.
func (tx *Tx) DeleteSessionIfEmpty(id string) (bool, error) {
	id, err := tx.resolveNative(id, "")
	if err != nil {
		return false, err
	}
	if err := tx.c.run(`DELETE FROM sessions WHERE id = ?1
		AND NOT EXISTS (SELECT 1 FROM messages WHERE session_id = ?1)
		AND NOT EXISTS (SELECT 1 FROM sessions AS child WHERE child.parent_session_id = ?1)`, id); err != nil {
		return false, err
	}
	gone := tx.c.db.Changes() > 0
	if gone {
		delete(tx.dirty, id)
	}
	return gone, nil
}
