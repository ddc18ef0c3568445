package store

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/recall-dev/recall/migrations"
)

// migration is one numbered .sql file.
type migration struct {
	version int
	name    string
	sql     string
}

// loadMigrations reads and orders the embedded files.
func loadMigrations() ([]migration, error) {
	entries, err := fs.ReadDir(migrations.FS, ".")
	if err != nil {
		return nil, err
	}
	var out []migration
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".sql") {
			continue
		}
		n, err := strconv.Atoi(strings.SplitN(name, "_", 2)[0])
		if err != nil {
			return nil, fmt.Errorf("migration %s: name must start with its number", name)
		}
		b, err := fs.ReadFile(migrations.FS, name)
		if err != nil {
			return nil, err
		}
		out = append(out, migration{version: n, name: name, sql: string(b)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].version < out[j].version })
	return out, nil
}

func migrationsHermesMax() int { return migrations.HermesMax }

const metaRecallVersion = "recall_schema_version"

// fileKind is what a database file is to recall.
type fileKind int

const (
	fileEmpty    fileKind = iota // no schema at all (a zero-byte file too): becomes recall's
	fileRecall                   // recall created it: recall migrates it
	fileUnmarked                 // an older recall's creation, stopped before its marker
	fileForeign                  // anything else (a Hermes state.db): never written
)

// marked reports whether the next locked step writes the recall_created
// marker: always into an empty file, and into an older recall's unfinished
// creation when recall opens it as its own (not for an explicit migrate).
func (k fileKind) marked(claim bool) bool { return k == fileEmpty || (claim && k == fileUnmarked) }

// inspectFile decides what the file is. A file is recall's when state_meta
// carries recall_created, written with the first migration. An older
// recall wrote that marker last, so a creation it left half-way past
// migration 1001 has recall_schema_version but no marker: such a file with
// no sessions and no messages is recall's too (`recall migrate` also writes
// recall_schema_version into a Hermes copy, which stays foreign as long as
// it holds anything). A half-way creation before 1001 cannot be told from
// an empty Hermes v1-v10 file and stays foreign.
func inspectFile(c *conn) (fileKind, error) {
	n, _, err := c.scalarInt("SELECT count(*) FROM sqlite_master")
	if err != nil {
		return fileForeign, err
	}
	if n == 0 {
		return fileEmpty, nil
	}
	meta, _, err := c.scalarInt("SELECT count(*) FROM sqlite_master WHERE type='table' AND name='state_meta'")
	if err != nil || meta == 0 {
		return fileForeign, err
	}
	if _, ours, err := c.scalarInt("SELECT 1 FROM state_meta WHERE key = ?", metaCreatedBy); err != nil || ours {
		return fileRecall, err
	}
	if _, started, err := c.scalarInt("SELECT 1 FROM state_meta WHERE key = ?", metaRecallVersion); err != nil || !started {
		return fileForeign, err
	}
	if _, used, err := c.scalarInt("SELECT 1 FROM sessions UNION ALL SELECT 1 FROM messages LIMIT 1"); err != nil || used {
		return fileForeign, err
	}
	return fileUnmarked, nil
}

// schemaOutcome is what ensureSchema found.
type schemaOutcome int

const (
	schemaReady   schemaOutcome = iota // at recall's latest schema
	schemaForeign                      // not recall's (only when claiming)
	schemaNewer                        // a schema_version newer than recall knows
)

// ensureSchema brings the database c is open on to recall's latest schema,
// safely under any number of processes doing the same at the same moment:
// every migration runs in its own IMMEDIATE transaction that re-reads the
// versions (and what the file is) after taking the write lock, so each is
// applied exactly once, and a crash leaves the last complete version. When
// the file is empty, the first migration also creates state_meta and marks
// the file recall's, atomically, so an interrupted creation resumes on the
// next open instead of leaving a file that looks foreign.
//
// claim is false for an explicit `recall migrate`, which upgrades any file
// (a copy of a Hermes database) without making it recall's.
func ensureSchema(ctx context.Context, c *conn, path string, claim bool) (schemaOutcome, error) {
	all, err := loadMigrations()
	if err != nil {
		return schemaReady, err
	}
	for {
		if err := ctx.Err(); err != nil {
			return schemaReady, err
		}
		// Without the lock first: an up-to-date database (every open but the
		// first) never waits for another process's write.
		outcome, next, kind, err := nextMigration(c, all, claim)
		if err != nil || (next == nil && !kind.marked(claim)) || outcome != schemaReady {
			return outcome, err
		}
		if err := enableWAL(ctx, c, path); err != nil {
			return schemaReady, err
		}
		applied := false
		err = retryBusy(ctx, c, path, func() error {
			return withWriteLock(c, path, func() error {
				var next *migration
				var kind fileKind
				var err error
				outcome, next, kind, err = nextMigration(c, all, claim)
				if err != nil {
					return err
				}
				switch {
				case outcome != schemaReady:
					return errNothingToDo
				case next != nil:
					if err := applyMigration(c, *next, kind.marked(claim)); err != nil {
						return err
					}
				case kind.marked(claim):
					if err := markRecall(c); err != nil {
						return err
					}
				default:
					return errNothingToDo // another process got there first
				}
				applied = true
				return nil
			})
		})
		if errors.Is(err, errNothingToDo) {
			err = nil
		}
		if err != nil || !applied {
			return outcome, err
		}
	}
}

// nextMigration reads what the file is and its versions, and returns the
// first migration still to apply (nil when none is, or the file must not be
// migrated: foreign when claiming, or a newer schema).
func nextMigration(c *conn, all []migration, claim bool) (schemaOutcome, *migration, fileKind, error) {
	kind, err := inspectFile(c)
	if err != nil {
		return schemaReady, nil, kind, err
	}
	if claim && kind == fileForeign {
		return schemaForeign, nil, kind, nil
	}
	hv, err := schemaVersion(c)
	if err != nil {
		return schemaReady, nil, kind, err
	}
	if hv > migrations.HermesMax {
		return schemaNewer, nil, kind, nil
	}
	rv, err := recallVersion(c)
	if err != nil {
		return schemaReady, nil, kind, err
	}
	for i, m := range all {
		if (m.version <= migrations.HermesMax && m.version > hv) || (m.version > migrations.HermesMax && m.version > rv) {
			return schemaReady, &all[i], kind, nil
		}
	}
	return schemaReady, nil, kind, nil
}

// errNothingToDo ends a locked step with a ROLLBACK and no error.
var errNothingToDo = errors.New("nothing to do")

// enableWAL switches a file that is not yet in WAL mode (a new one) to WAL,
// which lets readers (the TUI) run while writers commit. Racing creators
// may both ask; the second finds it done.
func enableWAL(ctx context.Context, c *conn, path string) error {
	mode, _, err := c.scalarText("PRAGMA journal_mode")
	if err != nil || strings.EqualFold(mode, "wal") {
		return err
	}
	n, _, err := c.scalarInt("SELECT count(*) FROM sqlite_master")
	if err != nil || n > 0 {
		// An existing database keeps the journal mode its owner chose.
		return err
	}
	return retryBusy(ctx, c, path, func() error {
		_, _, err := c.scalarText("PRAGMA journal_mode=WAL")
		return err
	})
}

// schemaVersion reads Hermes's single-row schema_version (0 when absent).
func schemaVersion(c *conn) (int, error) {
	n, _, err := c.scalarInt("SELECT count(*) FROM sqlite_master WHERE type='table' AND name='schema_version'")
	if err != nil || n == 0 {
		return 0, err
	}
	v, _, err := c.scalarInt("SELECT COALESCE(MAX(version), 0) FROM schema_version")
	return int(v), err
}

func recallVersion(c *conn) (int, error) {
	n, _, err := c.scalarInt("SELECT count(*) FROM sqlite_master WHERE type='table' AND name='state_meta'")
	if err != nil || n == 0 {
		return 0, err
	}
	v, ok, err := c.scalarText("SELECT value FROM state_meta WHERE key = ?", metaRecallVersion)
	if err != nil || !ok {
		return 0, err
	}
	return strconv.Atoi(v)
}

// migrationHooks are Go steps that run right after a migration's SQL, in
// its transaction, for work SQL cannot express.
var migrationHooks = map[int]func(c *conn) error{
	1004: reindexNULRows,       // NUL bytes cannot be replaced in SQLite 3.40's SQL
	1025: reindexReasoningRows, // the same Go indexing as every insert, NUL bytes included
}

var alterAddColumn = regexp.MustCompile(`(?im)^\s*ALTER\s+TABLE\s+(\w+)\s+ADD\s+COLUMN\s+(\w+)[^;]*;\s*$`)

// applyMigration runs one file inside the caller's transaction and records
// its version. ALTER TABLE ... ADD COLUMN lines for columns that already
// exist are skipped, because Hermes adds columns declaratively and a real
// v10 file may already have some; "-- @backfill" statements of Hermes steps
// before the last are skipped, because migration 0011 rebuilds the same
// tables anyway. create marks a new file recall's in the same transaction.
func applyMigration(c *conn, m migration, create bool) error {
	sql := m.sql
	var skipErr error
	sql = alterAddColumn.ReplaceAllStringFunc(sql, func(stmt string) string {
		g := alterAddColumn.FindStringSubmatch(stmt)
		has, err := hasColumn(c, g[1], g[2])
		if err != nil {
			skipErr = err
		}
		if has {
			return "-- (column exists) " + strings.TrimSpace(stmt)
		}
		return stmt
	})
	if skipErr != nil {
		return fmt.Errorf("migration %s: %w", m.name, skipErr)
	}
	if m.version < migrations.HermesMax {
		sql = dropBackfills(sql)
	}
	if err := c.exec(sql); err != nil {
		return fmt.Errorf("migration %s: %w", m.name, err)
	}
	if hook := migrationHooks[m.version]; hook != nil {
		if err := hook(c); err != nil {
			return fmt.Errorf("migration %s: %w", m.name, err)
		}
	}
	if create {
		if err := markRecall(c); err != nil {
			return fmt.Errorf("migration %s: %w", m.name, err)
		}
	}
	if err := recordVersion(c, m.version); err != nil {
		return fmt.Errorf("migration %s: %w", m.name, err)
	}
	return nil
}

// markRecall records, inside the caller's transaction, that recall created
// the file.
func markRecall(c *conn) error {
	if err := c.exec("CREATE TABLE IF NOT EXISTS state_meta (key TEXT PRIMARY KEY, value TEXT)"); err != nil {
		return err
	}
	if err := c.run("INSERT OR IGNORE INTO state_meta(key, value) VALUES (?, ?)", metaCreatedBy, fmt.Sprintf("%.0f", toEpoch(now()))); err != nil {
		return fmt.Errorf("mark as recall's: %w", err)
	}
	return nil
}

// dropBackfills removes each statement that follows a "-- @backfill" line.
func dropBackfills(sql string) string {
	for {
		i := strings.Index(sql, "-- @backfill")
		if i < 0 {
			return sql
		}
		j := strings.Index(sql[i:], ";")
		if j < 0 {
			return sql[:i]
		}
		sql = sql[:i] + sql[i+j+1:]
	}
}

func recordVersion(c *conn, v int) error {
	if v > migrations.HermesMax {
		return c.run("INSERT OR REPLACE INTO state_meta(key, value) VALUES (?, ?)", metaRecallVersion, strconv.Itoa(v))
	}
	n, _, err := c.scalarInt("SELECT count(*) FROM schema_version")
	if err != nil {
		return err
	}
	if n == 0 {
		return c.run("INSERT INTO schema_version(version) VALUES (?)", v)
	}
	return c.run("UPDATE schema_version SET version = ?", v)
}

func hasColumn(c *conn, table, column string) (bool, error) {
	found := false
	err := c.query("SELECT name FROM pragma_table_info(?)", []any{table}, func(st stmtRow) error {
		if strings.EqualFold(st.ColumnText(0), column) {
			found = true
		}
		return nil
	})
	return found, err
}

// Migrate upgrades any database at path (for example a copy of a Hermes v1
// state.db) forward to recall's latest schema, keeping every row. It is the
// explicit, user-requested counterpart of the automatic migration recall
// applies only to the databases it created; it does not make the file
// recall's (an empty file is the exception: migrating it creates a recall
// database). It returns the Hermes schema version before and after.
func Migrate(ctx context.Context, path string) (from, to int, err error) {
	if err := initSQLite(); err != nil {
		return 0, 0, err
	}
	if _, err := os.Stat(path); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return 0, 0, &Error{Path: path, Kind: ErrNoDatabase, Err: err}
		}
		return 0, 0, dbError(path, err)
	}
	c, err := openConn(path, false)
	if err != nil {
		return 0, 0, dbError(path, err)
	}
	defer c.close()
	if from, err = schemaVersion(c); err != nil {
		return 0, 0, dbError(path, err)
	}
	if from > migrations.HermesMax {
		return from, from, fmt.Errorf("%s has schema version %d, newer than recall knows (%d)", path, from, migrations.HermesMax)
	}
	// recall's schema is meant for WAL (readers while writers commit), as
	// migrate always set it.
	if mode, _, err := c.scalarText("PRAGMA journal_mode"); err == nil && !strings.EqualFold(mode, "wal") {
		if err := retryBusy(ctx, c, path, func() error { return c.exec("PRAGMA journal_mode=WAL") }); err != nil {
			return from, from, dbError(path, fmt.Errorf("enable WAL: %w", err))
		}
	}
	if _, err := ensureSchema(ctx, c, path, false); err != nil {
		return from, from, dbError(path, err)
	}
	to, err = schemaVersion(c)
	return from, to, dbError(path, err)
}
