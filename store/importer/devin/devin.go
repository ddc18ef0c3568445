// Package devin imports the local sessions of the Devin CLI (Cognition's
// devin, and Devin Desktop, which shares its store). Devin keeps them in
// one SQLite database, <data dir>/devin/cli/sessions.db: a sessions row
// per session (id, title, working_directory, model, created_at,
// last_activity_at, main_chain_id, hidden) and its messages as a forest of
// message_nodes (node_id, parent_node_id, chat_message JSON, created_at):
// a retried request is a sibling node, and main_chain_id names the leaf
// of the live conversation, read from it up to its root. The transcripts
// it exports beside the database (transcripts/<id>.json) hold a subset of
// the same and are not read.
//
// Devin is closed source: the shapes are those public readers of the
// store describe (the fixture's manifest names them). The database is
// opened read-only (store/importer/internal/sqlitero); a session is read
// again only when its row or its nodes changed.
package devin

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"runtime"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer"
	"github.com/recall-dev/recall/store/importer/internal/export"
	"github.com/recall-dev/recall/store/importer/internal/sqlitero"
)

// SourceName is the session source of imported Devin CLI sessions.
const SourceName = "devin"

func init() { importer.Register(&Source{}, "devin-cli") }

// Source imports Devin's sessions.db. Its zero value is ready.
type Source struct{}

// Name is "devin".
func (*Source) Name() string { return SourceName }

// DBName is the database's file name.
const DBName = "sessions.db"

// DB is the database: $CHISEL_SESSION_DB (the path the CLI exports into
// the shells it runs), else <data dir>/devin/cli/sessions.db, the data
// dir being $XDG_DATA_HOME or ~/.local/share (on macOS too), %APPDATA% on
// Windows.
func DB() string {
	if p := os.Getenv("CHISEL_SESSION_DB"); p != "" {
		return p
	}
	if runtime.GOOS == "windows" {
		if d := os.Getenv("APPDATA"); d != "" {
			return filepath.Join(d, "devin", "cli", DBName)
		}
	}
	if d := importer.DataHome("devin", "cli"); d != "" {
		return filepath.Join(d, DBName)
	}
	return ""
}

// DefaultPaths is the database, and macOS's Application Support copy when
// there is one.
func (*Source) DefaultPaths() []string {
	out := importer.PathIf(DB())
	if runtime.GOOS == "darwin" {
		if p := importer.HomeDir("", filepath.Join("Library", "Application Support", "devin", "cli", DBName)); importer.IsFile(p) {
			out = append(out, p)
		}
	}
	return out
}

// Discover returns named files, and in a named folder (Devin's data dir,
// its cli folder) sessions.db.
func (*Source) Discover(paths []string) ([]string, error) {
	return importer.FilesIn(paths, false, DBName, "cli/"+DBName, "devin/cli/"+DBName)
}

// Import brings the copy of one sessions.db up to date.
func (*Source) Import(ctx context.Context, st *store.Store, file string) (importer.Report, error) {
	return export.ImportDB(ctx, st, SourceName, file, func(db *sqlitero.DB) (export.Reader, error) {
		sess, err := db.Columns("sessions")
		if err != nil {
			return nil, err
		}
		nodes, err := db.Columns("message_nodes")
		if err != nil {
			return nil, err
		}
		for _, c := range []string{"session_id", "node_id", "parent_node_id", "chat_message"} {
			if !nodes[c] {
				return nil, fmt.Errorf("%s is not Devin's sessions.db (no message_nodes.%s)", file, c)
			}
		}
		if !sess["id"] {
			return nil, fmt.Errorf("%s is not Devin's sessions.db (no sessions.id)", file)
		}
		return &reader{db: db, cols: sess, nodeCols: nodes}, nil
	})
}

type reader struct {
	db             *sqlitero.DB
	cols, nodeCols map[string]bool
}

// col is the sessions column name when the table has it, else NULL.
func (r *reader) col(name string) string {
	if r.cols[name] {
		return name
	}
	return "NULL"
}

// Heads lists the sessions, each fingerprinted by its row and its nodes
// (how many, the last one).
func (r *reader) Heads() ([]export.Head, error) {
	nodes := map[string]string{}
	err := r.db.Query(`SELECT session_id, count(*), max(node_id), sum(length(chat_message)) FROM message_nodes GROUP BY session_id`, nil, func(row sqlitero.Row) error {
		nodes[row.Text(0)] = row.Text(1) + "/" + row.Text(2) + "/" + row.Text(3)
		return nil
	})
	if err != nil {
		return nil, err
	}
	var out []export.Head
	err = r.db.Query(`SELECT id, `+r.col("title")+`, `+r.col("working_directory")+`, `+r.col("model")+`, `+r.col("last_activity_at")+`, `+r.col("main_chain_id")+`, `+r.col("hidden")+`
		FROM sessions ORDER BY `+r.col("created_at")+`, id`, nil, func(row sqlitero.Row) error {
		h := sha256.New()
		for i := 0; i < 7; i++ {
			h.Write([]byte(row.Text(i)))
			h.Write([]byte{0})
		}
		h.Write([]byte(nodes[row.Text(0)]))
		out = append(out, export.Head{ID: row.Text(0), Fingerprint: hex.EncodeToString(h.Sum(nil)[:12])})
		return nil
	})
	return out, err
}

// sessionRow is a sessions row.
type sessionRow struct {
	id, title, cwd, model string
	created, last         int64 // Unix seconds
	mainChain             int64
	hasMainChain, hidden  bool
}

// nodeRow is a message_nodes row.
type nodeRow struct {
	id, parent int64
	hasParent  bool
	created    int64
	raw        []byte
}

// Load reads one session's live chain.
func (r *reader) Load(h export.Head, t *importer.Tally) (export.Conversation, bool, error) {
	var s sessionRow
	found := false
	err := r.db.Query(`SELECT id, COALESCE(`+r.col("title")+`, ''), COALESCE(`+r.col("working_directory")+`, ''), COALESCE(`+r.col("model")+`, ''),
		COALESCE(`+r.col("created_at")+`, 0), COALESCE(`+r.col("last_activity_at")+`, 0), `+r.col("main_chain_id")+`, COALESCE(`+r.col("hidden")+`, 0)
		FROM sessions WHERE id = ?`, []any{h.ID}, func(q sqlitero.Row) error {
		found = true
		s = sessionRow{id: q.Text(0), title: q.Text(1), cwd: q.Text(2), model: q.Text(3), created: q.Int(4), last: q.Int(5),
			mainChain: q.Int(6), hasMainChain: !q.Null(6), hidden: q.Int(7) != 0}
		return nil
	})
	if err != nil || !found {
		return export.Conversation{}, false, err
	}
	created := "0"
	if r.nodeCols["created_at"] {
		created = "COALESCE(created_at, 0)"
	}
	var nodes []nodeRow
	err = r.db.Query(`SELECT node_id, parent_node_id, `+created+`, chat_message FROM message_nodes WHERE session_id = ? ORDER BY node_id`, []any{h.ID}, func(q sqlitero.Row) error {
		nodes = append(nodes, nodeRow{id: q.Int(0), parent: q.Int(1), hasParent: !q.Null(1), created: q.Int(2), raw: bytes.Clone([]byte(q.Text(3)))})
		return nil
	})
	if err != nil {
		return export.Conversation{}, false, err
	}
	c, ok := convert(s, chain(nodes, s), t)
	return c, ok, nil
}

// chain is the live conversation: from the session's main_chain_id leaf
// up to a root, in time order; without a leaf, from the last node.
func chain(nodes []nodeRow, s sessionRow) []nodeRow {
	if len(nodes) == 0 {
		return nil
	}
	byID := make(map[int64]nodeRow, len(nodes))
	for _, n := range nodes {
		byID[n.id] = n
	}
	leaf := nodes[len(nodes)-1].id
	if s.hasMainChain {
		if _, ok := byID[s.mainChain]; ok {
			leaf = s.mainChain
		}
	}
	var walk []nodeRow
	seen := map[int64]bool{}
	for id := leaf; ; {
		n, ok := byID[id]
		if !ok || seen[id] {
			break
		}
		seen[id] = true
		walk = append(walk, n)
		if !n.hasParent {
			break
		}
		id = n.parent
	}
	for i, j := 0, len(walk)-1; i < j; i, j = i+1, j-1 {
		walk[i], walk[j] = walk[j], walk[i]
	}
	return walk
}
