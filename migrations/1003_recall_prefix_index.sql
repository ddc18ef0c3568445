-- recall: prefix indexes on the unicode61 table for as-you-type search.
--
-- Typing "t", "tr", "tra" queries t*, tr*, tra*: without prefix indexes FTS5
-- merges the doclists of every term with that prefix (hundreds of ms on a
-- large history); with them it reads one doclist. The table keeps Hermes's
-- name, column and tokenizer, so Hermes and plain SQLite use it unchanged.
DROP TABLE messages_fts;
CREATE VIRTUAL TABLE messages_fts USING fts5(content, prefix='1 2 3');
INSERT INTO messages_fts(rowid, content)
    SELECT id, COALESCE(content, '') || ' ' || COALESCE(tool_name, '') || ' ' || COALESCE(tool_calls, '') FROM messages;
