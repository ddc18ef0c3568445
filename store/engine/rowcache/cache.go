// Package rowcache keeps what ranking over every match reads of every
// message row and that no index holds in the order a search needs it: each
// FTS table's row lengths in tokens (Lens, from its %_docsize) and which
// session each row belongs to, with each session's title, start and first
// message (SessionMap). It takes a reader connection and gives shared,
// read-only slices indexed by rowid; the first search of a process fills
// them (about a second per million messages), later ones read only the
// rows added since, and a process starts from the files a previous one
// left (below).
package rowcache

import (
	"bytes"
	"crypto/sha256"
	"encoding"
	"encoding/binary"
	"encoding/hex"
	"os"
	"path/filepath"
	"sync"
)

// Ranking over every match keeps, per process, every row's token count
// (Lens) and the message-to-session map (SessionMap): about a second
// per million messages to read. A long-running reader pays it once; a
// one-shot command (an agent calling `recall search --json`) would pay it
// on every call. So a fill that read many rows is also written to a file
// in the user's cache directory, and the next process starts from it and
// reads only the rows added since. The file names the database file by its
// identity (device and inode, fileID), so a database replaced by another
// file is never answered from the old one's cache; a row rewritten in place
// is caught as in a long-running process (the answer's rows are checked
// against %_docsize and their sessions, and the cache is dropped).

var (
	// Dir is where those files go; "" keeps nothing on disk. The store
	// sets it to recall's cache directory (RECALL_RANK_CACHE).
	Dir string
	// MinRows is the smallest fill worth a file.
	MinRows int64 = 50000
)

// Cache is one database's row caches, made once per open store.
type Cache struct {
	path     string   // the database file
	lens     sync.Map // per FTS table, its *Lens
	sessOnce sync.Once
	sess     *SessionMap
}

// New is the (empty) row caches of the database file at path.
func New(path string) *Cache { return &Cache{path: path} }

// Lens is table's row lengths.
func (c *Cache) Lens(table string) *Lens {
	v, _ := c.lens.LoadOrStore(table, &Lens{cache: c, table: table})
	return v.(*Lens)
}

// Sessions is the map of message rows to sessions, made on first use.
func (c *Cache) Sessions() *SessionMap {
	c.sessOnce.Do(func() { c.sess = &SessionMap{cache: c, byID: map[string]int32{}, titleWords: map[string][]int32{}} })
	return c.sess
}

// file is the file for this database and kind ("" when none).
func (c *Cache) file(kind string) string {
	if Dir == "" {
		return ""
	}
	abs, err := filepath.Abs(c.path)
	if err != nil {
		return ""
	}
	sum := sha256.Sum256([]byte(abs))
	return filepath.Join(Dir, hex.EncodeToString(sum[:12])+"."+kind)
}

// fileMagic starts every cache file: a file of another format (the
// gob files of the first version) is not read, and is replaced.
const fileMagic = "recall rank cache 2\n"

// load decodes kind's file into v when it was written for this very
// database file; false otherwise.
func (c *Cache) load(kind string, v encoding.BinaryUnmarshaler) bool {
	path := c.file(kind)
	id := FileID(c.path)
	if path == "" || id == "" {
		return false
	}
	b, err := os.ReadFile(path)
	if err != nil || !bytes.HasPrefix(b, []byte(fileMagic)) {
		return false
	}
	b = b[len(fileMagic):]
	n, k := binary.Uvarint(b)
	if k <= 0 || n > uint64(len(b)-k) || string(b[k:k+int(n)]) != id {
		return false
	}
	return v.UnmarshalBinary(b[k+int(n):]) == nil
}

// save writes v as kind's file (owner-only, replaced whole). Failing to
// write is not an error: the next process reads the rows.
func (c *Cache) save(kind string, v encoding.BinaryMarshaler) {
	path := c.file(kind)
	id := FileID(c.path)
	if path == "" || id == "" {
		return
	}
	body, err := v.MarshalBinary()
	if err != nil {
		return
	}
	out := binary.AppendUvarint([]byte(fileMagic), uint64(len(id)))
	out = append(append(out, id...), body...)
	if os.MkdirAll(filepath.Dir(path), 0o700) != nil {
		return
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".*")
	if err != nil {
		return
	}
	_, err = tmp.Write(out)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil || os.Rename(tmp.Name(), path) != nil {
		os.Remove(tmp.Name())
	}
}

// remove deletes kind's file: the cache it held was found out of date,
// and the next process must not start from it again.
func (c *Cache) remove(kind string) {
	if path := c.file(kind); path != "" {
		os.Remove(path)
	}
}
