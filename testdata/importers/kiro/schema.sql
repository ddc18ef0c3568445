CREATE TABLE migrations (id INTEGER PRIMARY KEY, version INTEGER NOT NULL, migration_time INTEGER NOT NULL);
CREATE TABLE history (id INTEGER PRIMARY KEY AUTOINCREMENT, command TEXT, shell TEXT, pid INTEGER, session_id TEXT, cwd TEXT, start_time INTEGER, hostname TEXT, exit_code INTEGER, end_time INTEGER, duration INTEGER);
CREATE TABLE state (key TEXT PRIMARY KEY, value BLOB);
CREATE TABLE auth_kv (key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE conversations (
    key TEXT PRIMARY KEY,
    value TEXT
);
INSERT INTO migrations (id, version, migration_time) VALUES (0, 0, 1756790000), (1, 1, 1756790000), (2, 2, 1756790000), (3, 3, 1756790000), (4, 4, 1756790000), (5, 5, 1756790000), (6, 6, 1756790000), (7, 7, 1756790000);
CREATE TABLE conversations_v2 (
    key TEXT NOT NULL,
    conversation_id TEXT NOT NULL,
    value TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (key, conversation_id)
);
CREATE INDEX idx_conversations_v2_key_updated ON conversations_v2(key, updated_at DESC);
CREATE INDEX idx_conversations_v2_updated_at ON conversations_v2(updated_at DESC);
