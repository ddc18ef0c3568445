-- recall: bound what one message puts in the full-text indexes, and keep NUL
-- bytes out of them.
--
-- Bounds: a message is indexed on the first 262,144 characters of its
-- content, the first 1,024 of its tool name and the first 262,144 of its
-- tool calls, in all three FTS tables alike (so they agree on what is
-- findable). Normal messages are far below this (Claude Code cuts a shell
-- output at 30,000 characters, a file read at 2,000 lines); a 30 MB log or
-- base64 blob is stored whole in messages but cannot make FTS5 build a
-- 100 MB trigram list in one statement, which ran SQLite out of memory.
-- Hermes bounds its base index the same way (8,192 characters of tool rows).
--
-- NUL: SQLite 3.40 and 3.51 tokenize text after an embedded NUL differently
-- (3.40's trigram tokenizer stops there), so an index written by one failed
-- the other's integrity-check, and a native DELETE then removed the wrong
-- terms ("malformed inverted index"). substr() stops at the first NUL, so
-- these triggers index a field up to its first NUL byte; no SQL function of
-- SQLite 3.40 can replace a NUL (replace() takes a pattern that starts with
-- NUL for an empty one). recall itself indexes rows that contain NUL in Go,
-- with each NUL read as a space (bulk.go, indexField), so the text after it
-- stays findable; native writers get the truncated form.
--
-- recall's bulk path computes exactly these expressions in Go for NUL-free
-- rows; TestBulkMatchesTriggerPath holds the two together.
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
        substr(COALESCE(new.tool_calls, ''), 1, 262144));
END;

CREATE TRIGGER messages_fts_update AFTER UPDATE ON messages BEGIN
    DELETE FROM messages_fts WHERE rowid = old.id;
    INSERT INTO messages_fts(rowid, content) VALUES (new.id,
        substr(COALESCE(new.content, ''), 1, 262144) || ' ' ||
        substr(COALESCE(new.tool_name, ''), 1, 1024) || ' ' ||
        substr(COALESCE(new.tool_calls, ''), 1, 262144));
END;

CREATE TRIGGER messages_fts_trigram_insert AFTER INSERT ON messages BEGIN
    INSERT INTO messages_fts_trigram(rowid, content) VALUES (new.id,
        substr(COALESCE(new.content, ''), 1, 262144) || ' ' ||
        substr(COALESCE(new.tool_name, ''), 1, 1024) || ' ' ||
        substr(COALESCE(new.tool_calls, ''), 1, 262144));
END;

CREATE TRIGGER messages_fts_trigram_update AFTER UPDATE ON messages BEGIN
    DELETE FROM messages_fts_trigram WHERE rowid = old.id;
    INSERT INTO messages_fts_trigram(rowid, content) VALUES (new.id,
        substr(COALESCE(new.content, ''), 1, 262144) || ' ' ||
        substr(COALESCE(new.tool_name, ''), 1, 1024) || ' ' ||
        substr(COALESCE(new.tool_calls, ''), 1, 262144));
END;

-- The CJK gate looks at the same bounded text the grams are made from.
CREATE TRIGGER recall_cjk_insert AFTER INSERT ON messages
WHEN substr(COALESCE(new.content, ''), 1, 262144) ||
     substr(COALESCE(new.tool_calls, ''), 1, 262144) GLOB '*[぀-ヿ㐀-䶿一-鿿가-힯𠀀-𪛟]*'
BEGIN
    INSERT OR IGNORE INTO recall_cjk_pending(id) VALUES (new.id);
END;

CREATE TRIGGER recall_cjk_update AFTER UPDATE OF content, tool_name, tool_calls ON messages BEGIN
    DELETE FROM recall_fts_cjk WHERE rowid = old.id;
    INSERT OR IGNORE INTO recall_cjk_pending(id)
        SELECT new.id WHERE substr(COALESCE(new.content, ''), 1, 262144) ||
            substr(COALESCE(new.tool_calls, ''), 1, 262144) GLOB '*[぀-ヿ㐀-䶿一-鿿가-힯𠀀-𪛟]*';
END;

-- Rows an older recall indexed with a NUL byte inside are indexed again by
-- Go code in this migration's transaction (store/index.go, reindexNULRows).
