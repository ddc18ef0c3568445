package store

// listableSession is Hermes's condition for a session of its own in a list
// (hermes-store-spec: _LISTABLE_CHILD_SQL): a root, or a branch child
// (model_config._branched_from: Hermes's /branch, a Codex fork), which is a
// new conversation rather than a part of its parent; never a delegated
// sub-agent run.
func (l layout) listableSession() string {
	if !l.sessionCols["model_config"] {
		return "s.parent_session_id IS NULL"
	}
	return `(s.parent_session_id IS NULL OR (json_valid(s.model_config) AND json_extract(s.model_config, '$._branched_from') IS NOT NULL
		AND json_extract(s.model_config, '$._delegate_from') IS NULL))`
}
