-- recall: what `recall forget` deleted, so that a re-import does not bring
-- it back. A key is a whole session's id, or one message's identity inside
-- its session: session id, NUL, then the source's own key for the message
-- (as in recall_message_keys) or "#" and the SHA-256 of its role and text.
-- No text is kept here: the point is that it is gone.
CREATE TABLE IF NOT EXISTS recall_forgotten (
    key TEXT PRIMARY KEY,
    forgotten_at REAL NOT NULL
) WITHOUT ROWID;
