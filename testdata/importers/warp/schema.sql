-- warp.sqlite's tables recall reads, as Warp's migrations leave them
-- (warpdotdev/warp crates/persistence/migrations: 2024-08-05-145004_add_ai_exchanges_table,
-- 2024-08-16-205602_add_ai_ids, 2024-08-20-201322_split_ai_exchanges_table, 2024-08-22-182702_ai_exchange_id_unique_index, 2025-01-22-070545,
-- 2025-02-24-155225, 2025-05-07-193736 (model ids), 2025-06-09-013710_create_agent_conversations_table,
-- 2026-07-07-000000_add_summary_to_agent_conversations; crates/persistence/src/schema.rs).
CREATE TABLE ai_queries (
  id INTEGER PRIMARY KEY NOT NULL,
  exchange_id TEXT NOT NULL,
  conversation_id TEXT NOT NULL,
  start_ts DATETIME NOT NULL,
  input TEXT NOT NULL,
  working_directory TEXT,
  output_status TEXT NOT NULL,
  model_id TEXT NOT NULL DEFAULT '',
  planning_model_id TEXT NOT NULL DEFAULT '',
  coding_model_id TEXT NOT NULL DEFAULT ''
);
CREATE UNIQUE INDEX ux_ai_queries_exchange_id ON ai_queries(exchange_id);

CREATE TABLE agent_conversations (
    id INTEGER PRIMARY KEY NOT NULL,
    conversation_id TEXT NOT NULL,
    active_task_id TEXT,
    conversation_data TEXT NOT NULL,
    last_modified_at TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
    summary TEXT
);
CREATE UNIQUE INDEX ux_agent_conversations_conversation_id ON agent_conversations (conversation_id);

CREATE TABLE agent_tasks (
    id INTEGER PRIMARY KEY NOT NULL,
    conversation_id TEXT NOT NULL,
    task_id TEXT NOT NULL,
    task BLOB NOT NULL,
    last_modified_at TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
    FOREIGN KEY (conversation_id) REFERENCES agent_conversations (conversation_id)
);
CREATE UNIQUE INDEX ux_agent_tasks_task_id ON agent_tasks (task_id);
