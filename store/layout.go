package store

import (
	"regexp"
	"strconv"
	"strings"
)

// layout is what this particular database file has: recall's own files have
// everything; a Hermes state.db may be anything from v1 (external-content FTS
// over content only) to v30 (external-content FTS over views, deferred
// rebuild markers). Queries are built from it so one code path reads all.
type layout struct {
	schemaVersion int
	recallCreated bool

	sessionCols map[string]bool
	messageCols map[string]bool

	hasFTS        bool // messages_fts
	ftsMultiCol   bool // v23+: content, tool_name, tool_calls columns -> snippet column -1
	hasTrigram    bool // messages_fts_trigram
	hasCJK        bool // recall_fts_cjk (recall databases only)
	hasKeys       bool // recall_message_keys
	hasForgotten  bool // recall_forgotten (forget.go)
	hasImportMeta bool // recall_import_files
	hasIdentity   bool // recall_session_identity (identity.go)
	hasSync       bool // recall_machines, recall_sync_peers (machine.go)

	// ftsStale: state_meta says the FTS index cannot be trusted at all.
	ftsStale bool
	// ftsContentOnly: Hermes v1-v10 index the content column only, not
	// tool_name and tool_calls; the route covers those by LIKE (plan.Gaps).
	ftsContentOnly bool
	// unindexedFrom/To: ids in (from, to] are not yet in the FTS index
	// (Hermes's deferred rebuild), covered by a LIKE scan.
	unindexedFrom, unindexedTo int64
}

func detectLayout(c *conn) (layout, error) {
	l := layout{sessionCols: map[string]bool{}, messageCols: map[string]bool{}}
	var err error
	if l.schemaVersion, err = schemaVersion(c); err != nil {
		return l, err
	}
	tables := map[string]string{}
	err = c.query("SELECT name, COALESCE(sql, '') FROM sqlite_master WHERE type IN ('table', 'view')", nil, func(st stmtRow) error {
		tables[st.ColumnText(0)] = st.ColumnText(1)
		return nil
	})
	if err != nil {
		return l, err
	}
	for table, cols := range map[string]map[string]bool{"sessions": l.sessionCols, "messages": l.messageCols} {
		if _, ok := tables[table]; !ok {
			continue
		}
		err := c.query("SELECT name FROM pragma_table_info(?)", []any{table}, func(st stmtRow) error {
			cols[strings.ToLower(st.ColumnText(0))] = true
			return nil
		})
		if err != nil {
			return l, err
		}
	}
	if ddl, ok := tables["messages_fts"]; ok {
		l.hasFTS = true
		l.ftsMultiCol = strings.Contains(strings.ToLower(ddl), "tool_name")
		l.ftsContentOnly = ftsIndexesContentOnly(ddl)
	}
	_, l.hasTrigram = tables["messages_fts_trigram"]
	_, l.hasCJK = tables["recall_fts_cjk"]
	_, l.hasKeys = tables["recall_message_keys"]
	_, l.hasForgotten = tables["recall_forgotten"]
	_, l.hasImportMeta = tables["recall_import_files"]
	_, l.hasIdentity = tables["recall_session_identity"]
	_, l.hasSync = tables["recall_machines"]
	if _, ok := tables["state_meta"]; ok {
		meta := map[string]string{}
		err := c.query("SELECT key, COALESCE(value, '') FROM state_meta", nil, func(st stmtRow) error {
			meta[st.ColumnText(0)] = st.ColumnText(1)
			return nil
		})
		if err != nil {
			return l, err
		}
		_, l.recallCreated = meta[metaCreatedBy]
		if v, ok := meta["fts_stale"]; ok && v != "" && v != "0" {
			l.ftsStale = true
		}
		if hw, ok := meta["fts_rebuild_high_water"]; ok {
			high, _ := strconv.ParseInt(hw, 10, 64)
			progress, _ := strconv.ParseInt(meta["fts_rebuild_progress"], 10, 64)
			if high > progress {
				l.unindexedFrom, l.unindexedTo = progress, high
			}
		}
	}
	return l, nil
}

// sessionCol is "s.<name>" when the column exists, else a typed default, so
// queries work on every Hermes version.
func (l layout) sessionCol(name, def string) string {
	if l.sessionCols[name] {
		return "s." + name
	}
	return def
}

func (l layout) messageCol(name, def string) string {
	if l.messageCols[name] {
		return "m." + name
	}
	return def
}

// liveMessage is a row of the conversation as it stands, what Hermes
// counts in message_count: not rewound, not folded into a compaction
// summary (both active=0), not hidden. Unqualified column names: it is
// used in correlated subqueries of the messages table.
func (l layout) liveMessage() string {
	var parts []string
	if l.messageCols["active"] {
		parts = append(parts, "active = 1")
	}
	if l.messageCols["display_kind"] {
		parts = append(parts, "COALESCE(display_kind, '') <> 'hidden'")
	}
	if len(parts) == 0 {
		return "1"
	}
	return strings.Join(parts, " AND ")
}

// visibleMessage is Hermes's search visibility: rewound rows (active=0,
// compacted=0) and display_kind='hidden' rows are not shown.
func (l layout) visibleMessage() string {
	var parts []string
	if l.messageCols["active"] && l.messageCols["compacted"] {
		parts = append(parts, "(m.active = 1 OR m.compacted = 1)")
	} else if l.messageCols["active"] {
		parts = append(parts, "m.active = 1")
	}
	if l.messageCols["display_kind"] {
		parts = append(parts, "COALESCE(m.display_kind, '') <> 'hidden'")
	}
	if len(parts) == 0 {
		return "1"
	}
	return strings.Join(parts, " AND ")
}

// unsearchedMessage is the complement of visibleMessage over messages m:
// the rows search never matches, "0" when the file marks none. Its text is
// the WHERE of migration 1065's partial index (recall_messages_unsearched),
// so SQLite reads those rows from it on recall's files.
func (l layout) unsearchedMessage() string {
	var parts []string
	if l.messageCols["display_kind"] {
		parts = append(parts, "m.display_kind = 'hidden'")
	}
	if l.messageCols["active"] && l.messageCols["compacted"] {
		parts = append(parts, "(m.active = 0 AND m.compacted = 0)")
	} else if l.messageCols["active"] {
		parts = append(parts, "m.active = 0")
	}
	if len(parts) == 0 {
		return "0"
	}
	return strings.Join(parts, " OR ")
}

// contentOnlyFTS matches the DDL of Hermes v1-v10's external-content FTS
// tables over messages (fts5(content, content=messages, ...)), which index
// the content column alone; v11+ index content, tool_name and tool_calls
// (inline, or v23's external content over the messages_fts_src view).
var contentOnlyFTS = regexp.MustCompile(`(?i)content\s*=\s*['"]?messages['"]?\s*[,)]`)

// ftsIndexesContentOnly reports whether messages_fts's DDL is Hermes v1-v10's.
func ftsIndexesContentOnly(ddl string) bool {
	return contentOnlyFTS.MatchString(ddl) && !strings.Contains(strings.ToLower(ddl), "tool_name")
}
