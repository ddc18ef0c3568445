package store

import (
	"context"
	"fmt"
	"io/fs"
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

// createDatabase builds a new recall database: WAL, every migration, and the
// recall_created marker, so later opens know the file is recall's to migrate.
func createDatabase(ctx context.Context, c *conn) error {
	// WAL lets readers (the TUI) run while writers (imports, agents) commit.
	if err := c.exec("PRAGMA journal_mode=WAL"); err != nil {
		return fmt.Errorf("enable WAL: %w", err)
	}
	if err := migrate(ctx, c); err != nil {
		return err
	}
	return c.run("INSERT OR REPLACE INTO state_meta(key, value) VALUES (?, ?)", metaCreatedBy, fmt.Sprintf("%.0f", toEpoch(now())))
}

// isRecallDatabase reports whether recall created this file (or it is empty).
func isRecallDatabase(c *conn) (bool, error) {
	n, _, err := c.scalarInt("SELECT count(*) FROM sqlite_master WHERE type='table' AND name='state_meta'")
	if err != nil {
		return false, err
	}
	if n == 0 {
		// An empty file (no tables at all) is treated as new and becomes recall's.
		tables, _, err := c.scalarInt("SELECT count(*) FROM sqlite_master")
		return tables == 0, err
	}
	_, ok, err := c.scalarText("SELECT value FROM state_meta WHERE key = ?", metaCreatedBy)
	return ok, err
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

// migrate applies every pending migration, each in its own IMMEDIATE
// transaction, so a crash leaves the database at the last complete version.
func migrate(ctx context.Context, c *conn) error {
	all, err := loadMigrations()
	if err != nil {
		return err
	}
	hv, err := schemaVersion(c)
	if err != nil {
		return err
	}
	if hv > migrations.HermesMax {
		return fmt.Errorf("schema version %d is newer than recall knows (%d)", hv, migrations.HermesMax)
	}
	target := 0
	for _, m := range all {
		if m.version <= migrations.HermesMax {
			target = m.version
		}
	}
	for _, m := range all {
		if err := ctx.Err(); err != nil {
			return err
		}
		if m.version <= migrations.HermesMax {
			if m.version <= hv {
				continue
			}
		} else {
			rv, err := recallVersion(c)
			if err != nil {
				return err
			}
			if m.version <= rv {
				continue
			}
		}
		if err := applyMigration(c, m, target); err != nil {
			return err
		}
	}
	return nil
}

var alterAddColumn = regexp.MustCompile(`(?im)^\s*ALTER\s+TABLE\s+(\w+)\s+ADD\s+COLUMN\s+(\w+)[^;]*;\s*$`)

// applyMigration runs one file in one transaction and records its version.
// ALTER TABLE ... ADD COLUMN lines for columns that already exist are skipped,
// because Hermes adds columns declaratively and a real v10 file may already
// have some; "-- @backfill" statements are skipped when a later migration in
// this run rebuilds the same table.
func applyMigration(c *conn, m migration, hermesTarget int) error {
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
	if m.version < hermesTarget {
		sql = dropBackfills(sql)
	}
	if err := c.exec("BEGIN IMMEDIATE"); err != nil {
		return fmt.Errorf("migration %s: %w", m.name, err)
	}
	err := c.exec(sql)
	if err == nil {
		err = recordVersion(c, m.version)
	}
	if err != nil {
		c.exec("ROLLBACK")
		return fmt.Errorf("migration %s: %w", m.name, err)
	}
	if err := c.exec("COMMIT"); err != nil {
		c.exec("ROLLBACK")
		return fmt.Errorf("migration %s: commit: %w", m.name, err)
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
// applies only to the databases it created. It returns the Hermes schema
// version before and after.
func Migrate(ctx context.Context, path string) (from, to int, err error) {
	if err := initSQLite(); err != nil {
		return 0, 0, err
	}
	c, err := openConn(path, false)
	if err != nil {
		return 0, 0, err
	}
	defer c.close()
	from, err = schemaVersion(c)
	if err != nil {
		return 0, 0, err
	}
	if err := c.exec("PRAGMA journal_mode=WAL"); err != nil {
		return from, from, fmt.Errorf("enable WAL: %w", err)
	}
	if err := migrate(ctx, c); err != nil {
		return from, from, err
	}
	to, err = schemaVersion(c)
	return from, to, err
}
