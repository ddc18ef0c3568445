-- Devin CLI's sessions.db, the tables and columns recall reads, as public readers of the store query them
-- (Devin is closed source: kenn-io/agentsview internal/parser/devin.go, roshbhatia/traces
-- extras/devin/internal/conversation/store.go; see manifest.json).
CREATE TABLE sessions (
  id TEXT PRIMARY KEY,
  title TEXT,
  working_directory TEXT,
  model TEXT,
  created_at INTEGER,
  last_activity_at INTEGER,
  main_chain_id INTEGER,
  hidden INTEGER DEFAULT 0
);
CREATE TABLE message_nodes (
  row_id INTEGER PRIMARY KEY,
  session_id TEXT NOT NULL,
  node_id INTEGER NOT NULL,
  parent_node_id INTEGER,
  chat_message TEXT NOT NULL,
  created_at INTEGER
);
