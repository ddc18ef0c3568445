-- recall: an index for CJK terms too short for trigrams (1-2 characters).
--
-- recall_fts_cjk holds, per message with CJK text, the CJK bigrams of every
-- run plus the run's last character, and the Latin/digit pieces of mixed
-- runs (修改youer服务端 -> 修改 改 youer 服务 务端 端). recall
-- computes the grams in Go; plain SQLite only needs to queue rows, so the
-- triggers below are plain SQL and any native writer (Hermes, sqlite3 shell)
-- keeps the queue right. recall drains the queue in every write transaction
-- and covers still-queued rows with a LIKE scan of just those rows.
CREATE VIRTUAL TABLE IF NOT EXISTS recall_fts_cjk USING fts5(grams, prefix='1');

CREATE TABLE IF NOT EXISTS recall_cjk_pending (id INTEGER PRIMARY KEY);

-- GLOB ranges: kana, CJK extension A, CJK unified, Hangul syllables, extension B.
CREATE TRIGGER IF NOT EXISTS recall_cjk_insert AFTER INSERT ON messages
WHEN COALESCE(new.content, '') || COALESCE(new.tool_calls, '') GLOB '*[぀-ヿ㐀-䶿一-鿿가-힯𠀀-𪛟]*'
BEGIN
    INSERT OR IGNORE INTO recall_cjk_pending(id) VALUES (new.id);
END;

CREATE TRIGGER IF NOT EXISTS recall_cjk_update AFTER UPDATE OF content, tool_name, tool_calls ON messages BEGIN
    DELETE FROM recall_fts_cjk WHERE rowid = old.id;
    INSERT OR IGNORE INTO recall_cjk_pending(id)
        SELECT new.id WHERE COALESCE(new.content, '') || COALESCE(new.tool_calls, '') GLOB '*[぀-ヿ㐀-䶿一-鿿가-힯𠀀-𪛟]*';
END;

CREATE TRIGGER IF NOT EXISTS recall_cjk_delete AFTER DELETE ON messages BEGIN
    DELETE FROM recall_fts_cjk WHERE rowid = old.id;
    DELETE FROM recall_cjk_pending WHERE id = old.id;
END;

-- Rows already in the database (recall migrate on an existing file) are queued.
INSERT OR IGNORE INTO recall_cjk_pending(id)
    SELECT id FROM messages
    WHERE COALESCE(content, '') || COALESCE(tool_calls, '') GLOB '*[぀-ヿ㐀-䶿一-鿿가-힯𠀀-𪛟]*';
