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
