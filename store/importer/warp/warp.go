// Package warp imports the agent conversations of the Warp terminal
// (warpdotdev/warp). Warp keeps them in its SQLite database warp.sqlite
// (app/src/persistence/sqlite.rs): a row per conversation in
// agent_conversations (conversation_id, conversation_data JSON, summary
// JSON, last_modified_at), its tasks in agent_tasks (task: a protobuf
// warp.multi_agent.v1.Task, encoded by prost: app/src/persistence/agent.rs
// upsert_agent_conversation), and the prompts typed into the agent in
// ai_queries (input JSON, start_ts, working_directory, model_id).
//
// A conversation is its root tasks' messages; a task with a parent (a
// sub-agent's) is a child session; a conversation an orchestrator started
// (conversation_data.parent_conversation_id) is a child of that one. Warp
// keeps at most 200 conversations (MAX_PERSISTED_CONVERSATION_COUNT) and
// 10,000 prompts: what it deletes stays in recall, and a conversation only
// ai_queries still names is imported as its prompts.
//
// The database is opened read-only while Warp writes it
// (store/importer/internal/sqlitero); a conversation is read again only
// when its rows changed.
package warp

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"time"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer"
	"github.com/recall-dev/recall/store/importer/internal/export"
	"github.com/recall-dev/recall/store/importer/internal/sqlitero"
)

// SourceName is the session source of imported Warp conversations.
const SourceName = "warp"

func init() { importer.Register(&Source{}, "warp-terminal") }

// Source imports warp.sqlite. Its zero value is ready.
type Source struct{}

// Name is "warp".
func (*Source) Name() string { return SourceName }

// DBName is the database's file name (WARP_SQLITE_FILE_NAME).
const DBName = "warp.sqlite"

// Dirs are the folders Warp's builds keep warp.sqlite in
// (crates/warp_core/src/paths.rs: secure_state_dir, else state_dir, of
// directories::ProjectDirs for the build's app id): on macOS the app
// group container's Application Support/<bundle id> (dev.warp.Warp-Stable,
// Warp-Preview), else ~/Library/Application Support/<bundle id>; on Linux
// $XDG_STATE_HOME/warp-terminal (-preview, warp-oss), ~/.local/state
// without it; on Windows %LOCALAPPDATA%\warp\Warp\data.
func Dirs() []string {
	home, err := os.UserHomeDir()
	if err != nil {
		return nil
	}
	var out []string
	switch runtime.GOOS {
	case "darwin":
		group := filepath.Join(home, "Library", "Group Containers", "2BBY89MBSN.dev.warp", "Library", "Application Support")
		support := filepath.Join(home, "Library", "Application Support")
		for _, id := range []string{"dev.warp.Warp-Stable", "dev.warp.Warp-Preview", "dev.warp.WarpOss"} {
			out = append(out, filepath.Join(group, id), filepath.Join(support, id))
		}
	case "windows":
		local := os.Getenv("LOCALAPPDATA")
		if local == "" {
			local = filepath.Join(home, "AppData", "Local")
		}
		for _, app := range []string{"Warp", "WarpPreview", "WarpOss"} {
			out = append(out, filepath.Join(local, "warp", app, "data"))
		}
	default:
		state := os.Getenv("XDG_STATE_HOME")
		if state == "" {
			state = filepath.Join(home, ".local", "state")
		}
		for _, app := range []string{"warp-terminal", "warp-terminal-preview", "warp-oss"} {
			out = append(out, filepath.Join(state, app))
		}
	}
	return out
}

// DefaultPaths is the warp.sqlite of each build found, and of its TUI
// (tui_state_dir: <dir>/tui); the first is named even when absent.
func (*Source) DefaultPaths() []string {
	dirs := Dirs()
	var out []string
	for i, d := range dirs {
		for _, p := range []string{filepath.Join(d, DBName), filepath.Join(d, "tui", DBName)} {
			if importer.IsFile(p) || (i == 0 && len(out) == 0) {
				out = append(out, p)
			}
		}
	}
	return out
}

// Discover returns named files, and in a named folder warp.sqlite and
// tui/warp.sqlite.
func (*Source) Discover(paths []string) ([]string, error) {
	return importer.FilesIn(paths, true, DBName, "tui/"+DBName)
}

// Import brings the copy of one warp.sqlite up to date.
func (*Source) Import(ctx context.Context, st *store.Store, file string) (importer.Report, error) {
	return export.ImportDB(ctx, st, SourceName, file, func(db *sqlitero.DB) (export.Reader, error) {
		r := &reader{db: db, file: file, ctx: ctx, st: st}
		var err error
		if r.conv, err = db.Columns("agent_conversations"); err != nil {
			return nil, err
		}
		if r.tasks, err = db.Columns("agent_tasks"); err != nil {
			return nil, err
		}
		if r.queries, err = db.Columns("ai_queries"); err != nil {
			return nil, err
		}
		if !r.conv["conversation_data"] && !r.queries["input"] {
			return nil, fmt.Errorf("%s is not Warp's warp.sqlite (no agent_conversations or ai_queries)", file)
		}
		return r, nil
	})
}

type reader struct {
	ctx                  context.Context
	st                   *store.Store
	db                   *sqlitero.DB
	file                 string
	conv, tasks, queries map[string]bool // the tables' columns (none when a table is missing)
	heads                map[string]head
}

// head is what Heads learned of one session.
type head struct {
	conv   string // the conversation
	task   string // a sub-agent's task, "" for the conversation itself
	parent string // the parent session
	only   bool   // a conversation only ai_queries names
}

// taskRow is an agent_tasks row without its messages.
type taskRow struct {
	conv, id, modified string
	size               int64
	parent, desc       string
}

// Heads lists the conversations (parents first), then the sub-agents'
// tasks, then the conversations only ai_queries still has.
func (r *reader) Heads() ([]export.Head, error) {
	r.heads = map[string]head{}
	type conv struct {
		id, data, modified, summary, parent string
		tasks                               []taskRow
	}
	var convs []*conv
	byID := map[string]*conv{}
	if r.conv["conversation_data"] {
		summary := "''"
		if r.conv["summary"] {
			summary = "COALESCE(summary, '')"
		}
		err := r.db.Query(`SELECT conversation_id, conversation_data, last_modified_at, `+summary+` FROM agent_conversations ORDER BY last_modified_at, id`, nil, func(row sqlitero.Row) error {
			c := &conv{id: row.Text(0), data: row.Text(1), modified: row.Text(2), summary: row.Text(3)}
			var d conversationData
			_ = json.Unmarshal([]byte(c.data), &d)
			c.parent = d.ParentConversationID
			convs = append(convs, c)
			byID[c.id] = c
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	if r.tasks["task"] {
		// A task's first bytes are its id (1), description (2) and
		// dependencies (3): prost writes fields in number order, the
		// messages (5) after them.
		err := r.db.Query(`SELECT conversation_id, task_id, last_modified_at, length(task), substr(task, 1, 4096) FROM agent_tasks ORDER BY id`, nil, func(row sqlitero.Row) error {
			t := taskRow{conv: row.Text(0), id: row.Text(1), modified: row.Text(2), size: row.Int(3)}
			t.parent, t.desc = taskPrefix(pb(row.ColumnRawBlob(4)))
			if c := byID[t.conv]; c != nil {
				c.tasks = append(c.tasks, t)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	queries := map[string]string{} // conversation → a digest of its ai_queries rows
	var queryOrder []string
	if r.queries["input"] {
		err := r.db.Query(`SELECT conversation_id, exchange_id, start_ts, length(input), output_status FROM ai_queries ORDER BY start_ts, id`, nil, func(row sqlitero.Row) error {
			id := row.Text(0)
			if _, ok := queries[id]; !ok {
				queryOrder = append(queryOrder, id)
			}
			queries[id] += row.Text(1) + "\x00" + row.Text(2) + "\x00" + fmt.Sprint(row.Int(3)) + "\x00" + row.Text(4) + "\x00"
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	// Parents before children: conversations an orchestrator started after
	// the others.
	sort.SliceStable(convs, func(i, j int) bool { return convs[i].parent == "" && convs[j].parent != "" })
	var out []export.Head
	var subs []export.Head
	for _, c := range convs {
		h := sha256.New()
		fmt.Fprintf(h, "%s\x00%s\x00%s\x00%s\x00", c.data, c.modified, c.summary, queries[c.id])
		roots := map[string]bool{}
		for _, t := range c.tasks {
			if t.parent == "" {
				roots[t.id] = true
				fmt.Fprintf(h, "%s\x00%s\x00%d\x00", t.id, t.modified, t.size)
			}
		}
		out = append(out, export.Head{ID: c.id, Fingerprint: hex.EncodeToString(h.Sum(nil)[:12])})
		r.heads[c.id] = head{conv: c.id, parent: c.parent}
		for _, t := range c.tasks {
			if t.parent == "" {
				continue
			}
			parent := t.parent
			if roots[parent] {
				parent = c.id
			}
			sum := sha256.Sum256([]byte(fmt.Sprintf("%s\x00%s\x00%d\x00%s", t.id, t.modified, t.size, parent)))
			subs = append(subs, export.Head{ID: t.id, Fingerprint: hex.EncodeToString(sum[:12])})
			r.heads[t.id] = head{conv: c.id, task: t.id, parent: parent}
		}
	}
	out = append(out, subs...)
	var only []string
	for _, id := range queryOrder {
		if byID[id] == nil {
			only = append(only, id)
		}
	}
	// A conversation only ai_queries names that recall read whole before
	// Warp deleted it stays as recall has it (its prompts, keyed by
	// exchange, are rows it has).
	err := r.st.Write(r.ctx, func(tx *store.Tx) error {
		for _, id := range only {
			prev, ok, err := tx.ImportFile(export.Key(SourceName, id))
			if err != nil {
				return err
			}
			if ok && !strings.HasPrefix(prev.State, "q") {
				continue
			}
			sum := sha256.Sum256([]byte(queries[id]))
			out = append(out, export.Head{ID: id, Fingerprint: "q" + hex.EncodeToString(sum[:12])})
			r.heads[id] = head{conv: id, only: true}
		}
		return nil
	})
	return out, err
}

// taskPrefix reads a task's parent (dependencies = 3 {parent_task_id =
// 1}) and description (2) from its first bytes.
func taskPrefix(b pb) (parent, desc string) {
	fs, _ := b.fields() // cut short: the fields read whole before the cut
	for _, f := range fs {
		switch {
		case f.num == 2 && f.wire == 2:
			desc = string(f.bytes)
		case f.num == 3 && f.wire == 2:
			parent = pb(f.bytes).str(1)
		}
	}
	return parent, desc
}

// Load reads one conversation, sub-agent task or prompt list.
func (r *reader) Load(h export.Head, t *importer.Tally) (export.Conversation, bool, error) {
	hd, ok := r.heads[h.ID]
	if !ok {
		return export.Conversation{}, false, nil
	}
	qs, err := r.loadQueries(hd.conv)
	if err != nil {
		return export.Conversation{}, false, err
	}
	if hd.only {
		c, ok := fromQueries(hd.conv, qs, t)
		return c, ok, nil
	}
	var row struct{ data, modified, summary string }
	if r.conv["conversation_data"] {
		summary := "''"
		if r.conv["summary"] {
			summary = "COALESCE(summary, '')"
		}
		err = r.db.Query(`SELECT conversation_data, last_modified_at, `+summary+` FROM agent_conversations WHERE conversation_id = ?`, []any{hd.conv}, func(q sqlitero.Row) error {
			row.data, row.modified, row.summary = q.Text(0), q.Text(1), q.Text(2)
			return nil
		})
		if err != nil {
			return export.Conversation{}, false, err
		}
	}
	var tasks []pb
	if r.tasks["task"] {
		q, args := `SELECT task FROM agent_tasks WHERE conversation_id = ? ORDER BY id`, []any{hd.conv}
		if hd.task != "" {
			q, args = `SELECT task FROM agent_tasks WHERE task_id = ?`, []any{hd.task}
		}
		err = r.db.Query(q, args, func(q sqlitero.Row) error {
			tasks = append(tasks, pb(bytes.Clone(q.ColumnRawBlob(0))))
			return nil
		})
		if err != nil {
			return export.Conversation{}, false, err
		}
	}
	c, ok := convert(hd, row.data, row.modified, row.summary, tasks, qs, t)
	return c, ok, nil
}

// query is an ai_queries row: one prompt.
type query struct {
	text, cwd, model, exchange string
	at                         time.Time
}

// loadQueries reads a conversation's prompts from ai_queries, oldest
// first. input is the JSON of Vec<PersistedAIInputType>:
// [{"Query": {"text", "context", "referenced_attachments"}}]
// (app/src/ai/blocklist/persistence.rs); output_status the JSON of
// AIQueryHistoryOutputStatus (not read: the answer is in the tasks);
// start_ts UTC.
func (r *reader) loadQueries(conv string) ([]query, error) {
	if !r.queries["input"] {
		return nil, nil
	}
	wd, model := "''", "''"
	if r.queries["working_directory"] {
		wd = "COALESCE(working_directory, '')"
	}
	if r.queries["model_id"] {
		model = "model_id"
	}
	var out []query
	err := r.db.Query(`SELECT input, start_ts, exchange_id, `+wd+`, `+model+` FROM ai_queries WHERE conversation_id = ? ORDER BY start_ts, id`, []any{conv}, func(row sqlitero.Row) error {
		var inputs []struct {
			Query *struct {
				Text string `json:"text"`
			} `json:"Query"`
		}
		_ = json.Unmarshal([]byte(row.Text(0)), &inputs)
		q := query{at: sqliteTime(row.Text(1)), exchange: row.Text(2), cwd: row.Text(3), model: row.Text(4)}
		for _, in := range inputs {
			if in.Query != nil && q.text == "" {
				q.text = in.Query.Text
			}
		}
		out = append(out, q)
		return nil
	})
	return out, err
}

// sqliteTime reads a TIMESTAMP as diesel and CURRENT_TIMESTAMP write it:
// UTC, "2006-01-02 15:04:05" with or without a fraction.
func sqliteTime(s string) time.Time {
	for _, layout := range []string{"2006-01-02 15:04:05.999999999", "2006-01-02T15:04:05.999999999", time.RFC3339Nano} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC()
		}
	}
	return time.Time{}
}
