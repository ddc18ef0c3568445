package store

import (
	"context"
	"fmt"
	"math/bits"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/ncruces/go-sqlite3"
	_ "github.com/ncruces/go-sqlite3/embed" // the SQLite 3.51 Wasm build, with FTS5
	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"

	"github.com/recall-dev/recall/store/internal/sqlutil"
)

var (
	initOnce sync.Once
	initErr  error
	// CompileCacheDir is where wazero keeps SQLite's compiled machine code;
	// empty disables the cache. Set it before the first Open.
	CompileCacheDir = defaultCompileCacheDir()
)

func defaultCompileCacheDir() string { return cacheDir("RECALL_WAZERO_CACHE", "wazero") }

// cacheDir is $env when set, else recall's name folder in the user's cache
// directory ("" when there is none).
func cacheDir(env, name string) string {
	if d := os.Getenv(env); d != "" {
		return d
	}
	dir, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "recall", name)
}

// wasmMemoryPages is each connection's WebAssembly memory limit, in 64 KiB
// pages. The driver's default is 256 MiB (32 MiB on 32-bit). The memory is
// reserved address space that is committed only as SQLite grows into it
// (ncruces/go-sqlite3 internal/alloc: mmap PROT_NONE, then mprotect), so a
// larger limit costs nothing until a statement needs it. Storing one message
// of n bytes takes about 2n inside SQLite (the bound copy plus the record
// being built), so 1 GiB stores MaxMessageBytes whole with room to spare;
// 32-bit builds keep the driver's 32 MiB and a smaller MaxMessageBytes.
var wasmMemoryPages = func() uint32 {
	if bits.UintSize < 64 {
		return 512
	}
	return 16384
}()

// initSQLite configures wazero once per process: the memory limit above,
// the driver's features, plus a compilation cache on disk so a second start
// loads SQLite's machine code instead of compiling it again (about 1 s of
// CPU on this machine; see the README for cold/warm numbers).
func initSQLite() error {
	initOnce.Do(func() {
		cfg := wazero.NewRuntimeConfig().WithCoreFeatures(api.CoreFeaturesV2).WithMemoryLimitPages(wasmMemoryPages)
		if CompileCacheDir != "" {
			// 0700 like everything else recall writes (wazero makes its own
			// files 0600 and its subdirectory 0700).
			if err := os.MkdirAll(CompileCacheDir, 0o700); err == nil {
				if cache, err := wazero.NewCompilationCacheWithDir(CompileCacheDir); err == nil {
					cfg = cfg.WithCompilationCache(cache)
				}
			}
		}
		sqlite3.RuntimeConfig = cfg
		initErr = sqlite3.Initialize()
	})
	return initErr
}

// conn is one SQLite connection with a cache of prepared statements.
type conn struct {
	db    *sqlite3.Conn
	stmts map[string]*sqlite3.Stmt
	// cacheSized: the reader's page cache is readerCacheKiB (sizeReaderCache).
	cacheSized bool
}

// readerCacheKiB is each reader connection's page cache. SQLite's default
// (2 MiB) holds too few pages of a large file for one ranked search: the
// final phase of a mid-frequency query on a million messages re-read its
// pages from the OS (a pread each) on every run, 40 % of its time. 16 MiB
// per reader (two readers: at most 32 MiB more RSS, filled only as used)
// made it 25-35 % faster (BenchmarkSearchMixed, `brontide` final p50 25 ->
// 16 ms); the newest-first first phase reads few pages and is unchanged.
const readerCacheKiB = 16 << 10

// sizeReaderCache gives a reader its page cache on first use, not at open:
// the pragma reads the schema, and Store.open's probe connection must meet
// a hot journal or an odd file itself, before anything reads it.
func (c *conn) sizeReaderCache() error {
	if c.cacheSized {
		return nil
	}
	if err := c.db.Exec(fmt.Sprintf("PRAGMA cache_size=-%d", readerCacheKiB)); err != nil {
		return err
	}
	c.cacheSized = true
	return nil
}

// openConn opens path, which must exist; read-only connections never create
// or alter the file. A read-write connection creates its -wal and -journal
// with the database file's own mode (modeof, as native SQLite does), so a
// 0600 database keeps 0600 companions whatever the umask.
func openConn(path string, readOnly bool) (*conn, error) {
	var (
		db  *sqlite3.Conn
		err error
	)
	if readOnly {
		db, err = sqlite3.OpenFlags(path, sqlite3.OPEN_READONLY)
	} else {
		db, err = sqlite3.OpenFlags(fileURI(path, "modeof"), sqlite3.OPEN_READWRITE|sqlite3.OPEN_URI)
	}
	if err != nil {
		return nil, err
	}
	c := &conn{db: db, stmts: map[string]*sqlite3.Stmt{}}
	// Writers wait 1 s inside SQLite, then the write helper retries with
	// jitter (Hermes PR #3385: a long busy timeout froze the TUI for 15-20 s).
	// Readers only wait when a checkpoint or recovery holds the WAL index.
	busy := 5 * time.Second
	if !readOnly {
		busy = time.Second
	}
	if err := db.BusyTimeout(busy); err != nil {
		c.close()
		return nil, err
	}
	pragmas := []string{"PRAGMA foreign_keys=ON"}
	if !readOnly {
		// NORMAL is durable across application crashes in WAL mode (only a power
		// loss may drop the last transactions) and avoids an fsync per commit.
		pragmas = append(pragmas, "PRAGMA synchronous=NORMAL", "PRAGMA journal_size_limit=67108864")
	}
	for _, p := range pragmas {
		if err := db.Exec(p); err != nil {
			c.close()
			return nil, err
		}
	}
	return c, nil
}

// openImmutable opens path read-only with immutable=1: no locks, no -shm,
// no -wal; only for a file nobody can be writing (see Store.open).
func openImmutable(path string) (*conn, error) {
	db, err := sqlite3.OpenFlags(fileURI(path)+"?immutable=1", sqlite3.OPEN_READONLY|sqlite3.OPEN_URI)
	if err != nil {
		return nil, err
	}
	c := &conn{db: db, stmts: map[string]*sqlite3.Stmt{}}
	if err := db.Exec("PRAGMA foreign_keys=ON"); err != nil {
		c.close()
		return nil, err
	}
	return c, nil
}

// fileURI is path as an SQLite URI whose listed parameters name the same
// file (modeof=path). Every byte but unreserved ones and '/' is
// percent-encoded, so '?', '#', '%', '&' and '=' in a path stay literal.
func fileURI(path string, params ...string) string {
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	esc := uriEscape(filepath.ToSlash(path))
	if !strings.HasPrefix(esc, "/") {
		esc = "/" + esc // a Windows drive letter: file:///C:/...
	}
	u := "file://" + esc
	for i, p := range params {
		sep := "&"
		if i == 0 {
			sep = "?"
		}
		u += sep + p + "=" + esc
	}
	return u
}

func uriEscape(s string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', strings.IndexByte("-._~/", c) >= 0:
			b.WriteByte(c)
		default:
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
		}
	}
	return b.String()
}

// matchCompanionModes gives -shm the database file's permission bits. The
// driver creates -shm with 0666 less the umask and has no modeof for it
// (native SQLite copies the database's mode), and the first connection of a
// process may be the read-only one that decides what the file is. Only a
// recall database is touched, and a file we may not chmod is left alone.
func matchCompanionModes(path string) {
	db, err := os.Stat(path)
	if err != nil {
		return
	}
	for _, suffix := range []string{"-shm", "-wal"} {
		if fi, err := os.Stat(path + suffix); err == nil && fi.Mode().Perm() != db.Mode().Perm() {
			_ = os.Chmod(path+suffix, db.Mode().Perm())
		}
	}
}

func (c *conn) close() error {
	for _, st := range c.stmts {
		// A statement that last failed with NOMEM reports it again on
		// Close, and the driver panics on NOMEM.
		safely(func() { st.Close() })
	}
	c.stmts = nil
	return c.db.Close()
}

func (c *conn) exec(sql string) error { return c.db.Exec(sql) }

// prepare returns a cached statement, reset and with bindings cleared.
func (c *conn) prepare(sql string) (*sqlite3.Stmt, error) {
	if st, ok := c.stmts[sql]; ok {
		st.Reset()
		st.ClearBindings()
		return st, nil
	}
	st, _, err := c.db.Prepare(sql)
	if err != nil {
		return nil, err
	}
	c.stmts[sql] = st
	return st, nil
}

// bind binds positional arguments by Go type.
func bind(st *sqlite3.Stmt, args ...any) error {
	for i, a := range args {
		p := i + 1
		var err error
		switch v := a.(type) {
		case nil:
			err = st.BindNull(p)
		case string:
			err = st.BindText(p, v)
		case int:
			err = st.BindInt64(p, int64(v))
		case int64:
			err = st.BindInt64(p, v)
		case float64:
			err = st.BindFloat(p, v)
		case bool:
			err = st.BindBool(p, v)
		case []byte:
			err = st.BindBlob(p, v)
		case time.Time:
			if v.IsZero() {
				err = st.BindNull(p)
			} else {
				err = st.BindFloat(p, toEpoch(v))
			}
		case nullString:
			if v == "" {
				err = st.BindNull(p)
			} else {
				err = st.BindText(p, string(v))
			}
		default:
			return fmt.Errorf("bind parameter %d: unsupported type %T", p, a)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// nullString binds "" as NULL.
type nullString string

// run executes a statement that returns no rows.
func (c *conn) run(sql string, args ...any) error {
	st, err := c.prepare(sql)
	if err != nil {
		return err
	}
	if err := bind(st, args...); err != nil {
		return err
	}
	return st.Exec()
}

// query runs sql and calls row for each result row.
func (c *conn) query(sql string, args []any, row func(st *sqlite3.Stmt) error) error {
	st, err := c.prepare(sql)
	if err != nil {
		return err
	}
	if err := bind(st, args...); err != nil {
		return err
	}
	for st.Step() {
		if err := row(st); err != nil {
			st.Reset()
			return err
		}
	}
	err = st.Err()
	st.Reset()
	return err
}

// scalarInt returns the first column of the first row; ok is false when there was no row.
func (c *conn) scalarInt(sql string, args ...any) (v int64, ok bool, err error) {
	err = c.query(sql, args, func(st *sqlite3.Stmt) error {
		v, ok = st.ColumnInt64(0), true
		return nil
	})
	return v, ok, err
}

func (c *conn) scalarText(sql string, args ...any) (v string, ok bool, err error) {
	err = c.query(sql, args, func(st *sqlite3.Stmt) error {
		v, ok = st.ColumnText(0), true
		return nil
	})
	return v, ok, err
}

func toEpoch(t time.Time) float64 { return sqlutil.ToEpoch(t) }

func fromEpoch(f float64) time.Time { return sqlutil.FromEpoch(f) }

// stmtRow is the statement positioned on a result row.
type stmtRow = *sqlite3.Stmt

// snapshot runs fn inside one read transaction: every statement of a
// search sees the same state of the file, and the shared lock is taken
// once (full ranking reads an index page per statement; each statement in
// autocommit mode took and released the lock, two fcntl calls each, which
// was a fifth of a common word's time). The transaction ends even when fn
// was interrupted.
func (c *conn) snapshot(fn func() error) error {
	if c.db.GetAutocommit() {
		if err := c.exec("BEGIN"); err == nil {
			defer func() {
				prev := c.db.SetInterrupt(context.Background())
				if c.exec("COMMIT") != nil {
					c.exec("ROLLBACK")
				}
				c.db.SetInterrupt(prev)
			}()
		}
	}
	return fn()
}
