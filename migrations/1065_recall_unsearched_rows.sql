-- recall: the rows search never matches (Hermes's rule: display_kind
-- 'hidden', and rewound rows, active = 0 without compacted = 1), by id. The
-- SQL filter that lists hits leaves them out row by row; the plain-query
-- session ranking scores every matching row from the index before any row
-- is read, so it needs the set of them as such: with this index it is read
-- in proportion to their number, not by reading every row
-- (store/engine/rowcache). The condition is store.layout.unsearchedMessage's
-- text, so SQLite uses the index for it.
CREATE INDEX IF NOT EXISTS recall_messages_unsearched ON messages(id)
  WHERE display_kind = 'hidden' OR (active = 0 AND compacted = 0);

-- An earlier version of a hidden message (its text before the source
-- rewrote it, stored under the live row's key + '~earlier:' + a hash) was
-- stored searched (compacted = 1) by recall before this version: it is as
-- unsearched as the message it was. Keys hold a NUL (session id, NUL,
-- the source's key), where SQLite's text functions stop: they are cut as
-- bytes.
UPDATE messages SET compacted = 0
WHERE display_kind = 'earlier' AND compacted = 1 AND id IN (
  SELECT e.message_id FROM recall_message_keys e
  JOIN recall_message_keys l
    ON l.key = CAST(substr(CAST(e.key AS BLOB), 1, instr(CAST(e.key AS BLOB), CAST('~earlier:' AS BLOB)) - 1) AS TEXT)
  JOIN messages live ON live.id = l.message_id
  WHERE instr(CAST(e.key AS BLOB), CAST('~earlier:' AS BLOB)) > 0 AND live.display_kind = 'hidden');
