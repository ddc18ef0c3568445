package engine

// Layout is what this database file has, as the engine reads it: recall's
// own files have everything; a Hermes state.db may be anything from v1
// (external-content FTS over content only) to v30. The store detects it
// when it opens the file (store/layout.go); the plan routes by it and the
// SQL the engine writes names only the columns it lists.
type Layout struct {
	HasFTS      bool // messages_fts
	FTSMultiCol bool // v23+: content, tool_name, tool_calls columns -> snippet column -1
	HasTrigram  bool // messages_fts_trigram
	HasCJK      bool // recall_fts_cjk (recall databases only)
	// FTSStale: state_meta says the FTS index cannot be trusted at all.
	FTSStale bool
	// FTSContentOnly: Hermes v1-v10 index the content column only, not
	// tool_name and tool_calls; the route covers those by LIKE (plan's gaps).
	FTSContentOnly bool
	// UnindexedFrom/To: ids in (from, to] are not yet in the FTS index
	// (Hermes's deferred rebuild), covered by a LIKE scan.
	UnindexedFrom, UnindexedTo int64
	// TrigramFromKey, TrigramToKey: the state_meta keys holding the id range
	// a deferred import has not put in the trigram index yet
	// (store/deferred_trigram.go); "" when the file keeps no such range.
	TrigramFromKey, TrigramToKey string

	// HasTitle: sessions has a title column.
	HasTitle bool
	// TitleCol, CwdCol, DisplayKindCol are the SQL of sessions' title and
	// cwd (alias s) and messages' display_kind (alias m), or a typed NULL
	// where the file lacks the column.
	TitleCol, CwdCol, DisplayKindCol string
	// Visible is Hermes's search visibility over messages m: rewound rows
	// and display_kind='hidden' rows are not searched ("1" when the file
	// has neither column).
	Visible string
	// Unsearched is its complement: the rows search never matches ("0"
	// when the file marks none), which ranking from the index leaves out
	// before any row is read (rowcache.SessionMap). On recall's files an
	// index holds exactly these rows (migration 1065).
	Unsearched string
	// AgentWritten is the condition over messages m for a row the agent
	// program wrote into a user record (store.DisplayKindAgent or
	// DisplayKindCompaction), which is shown as "system"; "" when the file
	// has no display_kind column.
	AgentWritten string
	// MachineClause appends to where the condition that a session (alias
	// s) came from one of machines (Filter.Machines): the store knows how
	// sync records a session's machine. Nil adds nothing.
	MachineClause func(where []string, args []any, machines []string) ([]string, []any)
}

// Columns are the column names a "col:" filter may name.
func (l Layout) Columns() []string {
	if l.FTSMultiCol {
		return []string{"content", "tool_name", "tool_calls"}
	}
	return []string{"content"}
}

// SnippetCol is the snippet() column: 0 for one-column tables, -1 (best
// column) for Hermes v23+ tables with content, tool_name and tool_calls.
func (l Layout) SnippetCol() int {
	if l.FTSMultiCol {
		return -1
	}
	return 0
}

// Haystack is the text a LIKE scan reads of a message m: the same fields
// the FTS tables index.
const Haystack = "(COALESCE(m.content, '') || ' ' || COALESCE(m.tool_name, '') || ' ' || COALESCE(m.tool_calls, ''))"
