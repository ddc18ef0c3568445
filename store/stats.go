package store

import (
	"context"
	"fmt"
	"os"
)

// Stats describes a database for `recall stats`.
type Stats struct {
	Path           string           `json:"path"`
	SchemaVersion  int              `json:"schema_version"`
	RecallVersion  int              `json:"recall_schema_version"`
	ReadOnly       bool             `json:"read_only"`
	RecallCreated  bool             `json:"recall_created"`
	Sessions       int64            `json:"sessions"`
	Messages       int64            `json:"messages"`
	Sources        map[string]int64 `json:"sources"`
	FileBytes      int64            `json:"file_bytes"`
	WALBytes       int64            `json:"wal_bytes"`
	IndexBytes     map[string]int64 `json:"index_bytes"` // per FTS table: bytes in its shadow tables
	SQLiteVersion  string           `json:"sqlite_version"`
	Backend        string           `json:"backend"`
	Layout         string           `json:"fts_layout"`
	PendingCJKRows int64            `json:"pending_cjk_rows"`
	// PendingTrigramRows counts the message ids an import left out of the
	// trigram index (its pass was stopped); searches scan them meanwhile.
	PendingTrigramRows int64 `json:"pending_trigram_rows"`
	// SessionsSourceGone counts the sessions whose source files the agent
	// deleted: recall keeps them (SourceGone).
	SessionsSourceGone int64 `json:"sessions_source_gone"`
	// MessagesRewritten counts the earlier versions kept of messages their
	// source rewrote (rewrite.go) or took back (mirror.go): text recall
	// keeps though the source replaced or dropped it.
	MessagesRewritten int64 `json:"messages_rewritten"`
	// SessionsQualified counts the sessions stored under a qualified id
	// ("<id>@<source>"): a session of another source had their id first.
	SessionsQualified int64 `json:"sessions_qualified"`
	// FilesToRecheck counts the import files an older recall may have
	// merged a session of into another source's: the next import of their
	// source reads them again and splits it (identity_split.go).
	FilesToRecheck int64 `json:"files_to_recheck"`
}

// Backend names the SQLite engine in use.
const Backend = "github.com/ncruces/go-sqlite3 v0.32.0 (SQLite compiled to WebAssembly, run by wazero; no cgo)"

// Stats counts rows and measures the file and its indexes.
func (s *Store) Stats(ctx context.Context) (Stats, error) {
	st := Stats{Path: s.path, SchemaVersion: s.layout.schemaVersion, ReadOnly: s.readOnly, RecallCreated: s.layout.recallCreated,
		Sources: map[string]int64{}, IndexBytes: map[string]int64{}, Backend: Backend, Layout: s.layout.describe()}
	if fi, err := os.Stat(s.path); err == nil {
		st.FileBytes = fi.Size()
	}
	if fi, err := os.Stat(s.path + "-wal"); err == nil {
		st.WALBytes = fi.Size()
	}
	err := s.read(ctx, func(c *conn) error {
		var err error
		if st.SQLiteVersion, _, err = c.scalarText("SELECT sqlite_version()"); err != nil {
			return err
		}
		if st.RecallVersion, err = recallVersion(c); err != nil {
			return err
		}
		if st.Sessions, _, err = c.scalarInt("SELECT count(*) FROM sessions"); err != nil {
			return err
		}
		if st.Messages, _, err = c.scalarInt("SELECT count(*) FROM messages"); err != nil {
			return err
		}
		if err := c.query("SELECT source, count(*) FROM sessions GROUP BY source ORDER BY 2 DESC", nil, func(r stmtRow) error {
			st.Sources[r.ColumnText(0)] = r.ColumnInt64(1)
			return nil
		}); err != nil {
			return err
		}
		if s.layout.hasDisplayState() {
			if st.MessagesRewritten, _, err = c.scalarInt("SELECT count(*) FROM messages WHERE display_kind = ?", DisplayKindEarlier); err != nil {
				return err
			}
		}
		if s.layout.hasIdentity {
			if st.SessionsQualified, _, err = c.scalarInt(`SELECT count(*) FROM recall_session_identity i JOIN sessions s ON s.id = i.id
				WHERE i.id <> i.native_id`); err != nil {
				return err
			}
			if st.FilesToRecheck, _, err = c.scalarInt("SELECT count(DISTINCT path) FROM recall_identity_recheck"); err != nil {
				return err
			}
		}
		if s.layout.hasCJK {
			if st.PendingCJKRows, _, err = c.scalarInt("SELECT count(*) FROM recall_cjk_pending"); err != nil {
				return err
			}
		}
		if s.layout.hasTrigram && s.layout.hasImportMeta {
			from, to, ok, err := c.deferredRange()
			if err != nil {
				return err
			}
			if ok {
				if st.PendingTrigramRows, _, err = c.scalarInt("SELECT count(*) FROM messages WHERE id > ? AND id <= ?", from, to); err != nil {
					return err
				}
			}
		}
		// This SQLite build has no dbstat: measure each FTS table by the bytes
		// in its shadow tables (index blocks, stored text, document sizes).
		shadows := map[string]string{"_data": "block", "_content": "c0", "_docsize": "sz", "_idx": "term"}
		for _, t := range []string{"messages_fts", "messages_fts_trigram", "recall_fts_cjk"} {
			var total int64
			for suffix, col := range shadows {
				has, err := hasColumn(c, t+suffix, col)
				if err != nil || !has {
					continue
				}
				n, _, err := c.scalarInt("SELECT COALESCE(SUM(length(CAST(" + col + " AS BLOB))), 0) FROM " + t + suffix)
				if err != nil {
					return err
				}
				total += n
			}
			if total > 0 {
				st.IndexBytes[t] = total
			}
		}
		return nil
	})
	if err != nil {
		return st, fmt.Errorf("stats: %w", err)
	}
	gone, err := s.SessionsSourceGone(ctx)
	if err != nil {
		return st, fmt.Errorf("stats: %w", err)
	}
	st.SessionsSourceGone = int64(gone)
	return st, nil
}

func (l layout) describe() string {
	switch {
	case !l.hasFTS:
		return "no FTS5 index (LIKE scans)"
	case l.ftsMultiCol:
		return "hermes v23+ external-content FTS over views"
	case l.hasCJK:
		return "recall: inline FTS5 (unicode61 + trigram) + short-CJK bigram index"
	case l.schemaVersion >= 11:
		return "hermes v11+ inline FTS5"
	default:
		return "hermes legacy external-content FTS5"
	}
}

// ChangeToken changes whenever messages or sessions change, so a TUI can
// refresh when another process (an import, an agent) wrote.
func (s *Store) ChangeToken(ctx context.Context) (string, error) {
	var tok string
	err := s.read(ctx, func(c *conn) error {
		return c.query("SELECT (SELECT COALESCE(MAX(id), 0) FROM messages), (SELECT count(*) FROM sessions), (SELECT COALESCE(SUM(message_count), 0) FROM sessions)",
			nil, func(r stmtRow) error {
				tok = fmt.Sprintf("%d/%d/%d", r.ColumnInt64(0), r.ColumnInt64(1), r.ColumnInt64(2))
				return nil
			})
	})
	return tok, err
}
