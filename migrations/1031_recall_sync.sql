-- recall: one history across machines (recall sync, batches).
--
-- Every database names its machine once (state_meta recall_machine_id, a
-- random id, and recall_machine_name); a session from another machine keeps
-- that machine's id in recall_session_identity.machine. recall_machines
-- names the machines this database has heard of: the name the machine gave
-- itself, and the ssh host this database reaches it by (for `resume` and
-- `sync`), if any.
CREATE TABLE IF NOT EXISTS recall_machines (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    host TEXT,
    first_seen REAL NOT NULL,
    last_seen REAL NOT NULL
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS recall_machines_host ON recall_machines(host) WHERE host IS NOT NULL;

-- What this database holds of another's: every message of that database up
-- to message_id (its own ids), and every tombstone forgotten up to
-- tombstone_at (its clock). A pull asks for what lies after; a push asks the
-- receiver for its row first. Written in the transaction that applies the
-- last of a batch, so a killed sync asks again for the same.
CREATE TABLE IF NOT EXISTS recall_sync_peers (
    machine TEXT PRIMARY KEY,
    message_id INTEGER NOT NULL DEFAULT 0,
    tombstone_at REAL NOT NULL DEFAULT 0,
    synced_at REAL NOT NULL
) WITHOUT ROWID;

-- Sessions by machine, for the list's machine filter.
CREATE INDEX IF NOT EXISTS recall_session_identity_machine ON recall_session_identity(machine) WHERE machine <> '';
