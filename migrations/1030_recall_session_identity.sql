-- recall: a session's identity is (machine, source, the source's own id).
--
-- sessions.id stays Hermes's unique TEXT key. The first session with a given
-- own id is stored under it; a session of another source (or from another
-- machine) whose own id is taken is stored under a qualified id ("<id>@<source>"),
-- and this table keeps its source, own id and machine beside it. A row exists
-- only where it says something the sessions row does not: a qualified id, a
-- session from another machine (machine is '' for this one), or a forgotten
-- session (its row stays, so its id is never given to another identity). A
-- session without a row is stored under its own id, and its source is
-- sessions.source.
CREATE TABLE IF NOT EXISTS recall_session_identity (
    id TEXT PRIMARY KEY,
    source TEXT NOT NULL,
    native_id TEXT NOT NULL,
    machine TEXT NOT NULL DEFAULT ''
) WITHOUT ROWID;
CREATE UNIQUE INDEX IF NOT EXISTS recall_session_identity_native
    ON recall_session_identity(native_id, source, machine);

-- A child parked before its parent names the parent's own id; the parent's
-- source says which session of that id it is.
ALTER TABLE recall_pending_parents ADD COLUMN parent_source TEXT;

-- Sessions that an older recall merged: two import files (of different
-- sources, or two generic jsonl files, whose records name their source)
-- produced the same session id, so the second source's messages went into the
-- first one's session. Each row is a file to read again and a session it
-- listed; the next import of that file moves its messages into a session of
-- its own (importer.Commit), then drops the row.
CREATE TABLE IF NOT EXISTS recall_identity_recheck (
    path TEXT NOT NULL,
    session_id TEXT NOT NULL,
    PRIMARY KEY (path, session_id)
) WITHOUT ROWID;

WITH RECURSIVE listed(path, source, rest, sid) AS (
    SELECT path, source, trim(sessions) || ' ', NULL FROM recall_import_files
    WHERE sessions IS NOT NULL AND trim(sessions) <> ''
    UNION ALL
    SELECT path, source, ltrim(substr(rest, instr(rest, ' ') + 1)), substr(rest, 1, instr(rest, ' ') - 1)
    FROM listed WHERE rest <> ''
)
INSERT OR IGNORE INTO recall_identity_recheck(path, session_id)
SELECT DISTINCT a.path, a.sid FROM listed a JOIN listed b
    ON a.sid = b.sid AND a.path <> b.path AND (a.source <> b.source OR a.source = 'jsonl')
WHERE a.sid IS NOT NULL AND a.sid <> '';
