-- recall: bookkeeping for idempotent, incremental imports.
--
-- recall_message_keys maps a source's own message identity to the row it
-- produced, so importing the same record twice inserts it once. The key is
-- prefixed with the session id so one session's keys are a contiguous range.
CREATE TABLE IF NOT EXISTS recall_message_keys (
    key TEXT PRIMARY KEY,
    message_id INTEGER NOT NULL
) WITHOUT ROWID;

CREATE TRIGGER IF NOT EXISTS recall_message_keys_delete AFTER DELETE ON messages BEGIN
    DELETE FROM recall_message_keys
    WHERE key >= old.session_id || char(0) AND key < old.session_id || char(1) AND message_id = old.id;
END;

-- One row per imported source file: how far it was read and importer state.
CREATE TABLE IF NOT EXISTS recall_import_files (
    path TEXT PRIMARY KEY,
    source TEXT NOT NULL,
    size INTEGER NOT NULL,
    mtime REAL NOT NULL,
    offset INTEGER NOT NULL,
    state TEXT,
    sessions TEXT,
    imported_at REAL NOT NULL
);

-- A child may be imported before its parent (separate files, any order):
-- the link waits here and is set once the parent row exists.
CREATE TABLE IF NOT EXISTS recall_pending_parents (
    session_id TEXT PRIMARY KEY,
    parent_id TEXT NOT NULL
);
