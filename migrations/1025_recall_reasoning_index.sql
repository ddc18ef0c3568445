-- recall: an agent's thinking (messages.reasoning: Claude Code's thinking
-- blocks, Codex's reasoning summaries, Gemini's thoughts) is searchable too.
--
-- The three full-text indexes take the reasoning after the content, tool
-- name and tool calls, bounded like the content (262,144 characters); the
-- CJK gate looks at it as well. Rows that already have a reasoning are
-- indexed again by Go code in this migration's transaction
-- (store/index.go, reindexReasoningRows), the way every insert indexes them.
DROP TRIGGER IF EXISTS messages_fts_insert;
DROP TRIGGER IF EXISTS messages_fts_update;
DROP TRIGGER IF EXISTS messages_fts_trigram_insert;
DROP TRIGGER IF EXISTS messages_fts_trigram_update;
DROP TRIGGER IF EXISTS recall_cjk_insert;
DROP TRIGGER IF EXISTS recall_cjk_update;

CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages BEGIN
    INSERT INTO messages_fts(rowid, content) VALUES (new.id,
        substr(COALESCE(new.content, ''), 1, 262144) || ' ' ||
        substr(COALESCE(new.tool_name, ''), 1, 1024) || ' ' ||
        substr(COALESCE(new.tool_calls, ''), 1, 262144) || ' ' ||
        substr(COALESCE(new.reasoning, ''), 1, 262144));
END;

CREATE TRIGGER messages_fts_update AFTER UPDATE ON messages BEGIN
    DELETE FROM messages_fts WHERE rowid = old.id;
    INSERT INTO messages_fts(rowid, content) VALUES (new.id,
        substr(COALESCE(new.content, ''), 1, 262144) || ' ' ||
        substr(COALESCE(new.tool_name, ''), 1, 1024) || ' ' ||
        substr(COALESCE(new.tool_calls, ''), 1, 262144) || ' ' ||
        substr(COALESCE(new.reasoning, ''), 1, 262144));
END;

CREATE TRIGGER messages_fts_trigram_insert AFTER INSERT ON messages BEGIN
    INSERT INTO messages_fts_trigram(rowid, content) VALUES (new.id,
        substr(COALESCE(new.content, ''), 1, 262144) || ' ' ||
        substr(COALESCE(new.tool_name, ''), 1, 1024) || ' ' ||
        substr(COALESCE(new.tool_calls, ''), 1, 262144) || ' ' ||
        substr(COALESCE(new.reasoning, ''), 1, 262144));
END;

CREATE TRIGGER messages_fts_trigram_update AFTER UPDATE ON messages BEGIN
    DELETE FROM messages_fts_trigram WHERE rowid = old.id;
    INSERT INTO messages_fts_trigram(rowid, content) VALUES (new.id,
        substr(COALESCE(new.content, ''), 1, 262144) || ' ' ||
        substr(COALESCE(new.tool_name, ''), 1, 1024) || ' ' ||
        substr(COALESCE(new.tool_calls, ''), 1, 262144) || ' ' ||
        substr(COALESCE(new.reasoning, ''), 1, 262144));
END;

CREATE TRIGGER recall_cjk_insert AFTER INSERT ON messages
WHEN substr(COALESCE(new.content, ''), 1, 262144) ||
     substr(COALESCE(new.tool_calls, ''), 1, 262144) ||
     substr(COALESCE(new.reasoning, ''), 1, 262144) GLOB '*[぀-ヿ㐀-䶿一-鿿가-힯𠀀-𪛟]*'
BEGIN
    INSERT OR IGNORE INTO recall_cjk_pending(id) VALUES (new.id);
END;

CREATE TRIGGER recall_cjk_update AFTER UPDATE OF content, tool_name, tool_calls, reasoning ON messages BEGIN
    DELETE FROM recall_fts_cjk WHERE rowid = old.id;
    INSERT OR IGNORE INTO recall_cjk_pending(id)
        SELECT new.id WHERE substr(COALESCE(new.content, ''), 1, 262144) ||
            substr(COALESCE(new.tool_calls, ''), 1, 262144) ||
            substr(COALESCE(new.reasoning, ''), 1, 262144) GLOB '*[぀-ヿ㐀-䶿一-鿿가-힯𠀀-𪛟]*';
END;
