package store

import (
	"bytes"
	"crypto/sha256"
	"encoding"
	"encoding/binary"
	"encoding/hex"
	"os"
	"path/filepath"
)

// Ranking over every match keeps, per process, every row's token count
// (docLens) and the message-to-session map (sessionMap): about a second
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
	// RankCacheDir is where those files go; "" keeps nothing on disk.
	RankCacheDir = defaultRankCacheDir()
	// rankCacheMinRows is the smallest fill worth a file.
	rankCacheMinRows int64 = 50000
)

func defaultRankCacheDir() string { return cacheDir("RECALL_RANK_CACHE", "rank") }

// rankCacheFile is the file for this database and kind ("" when none).
func (s *Store) rankCacheFile(kind string) string {
	if RankCacheDir == "" {
		return ""
	}
	abs, err := filepath.Abs(s.path)
	if err != nil {
		return ""
	}
	sum := sha256.Sum256([]byte(abs))
	return filepath.Join(RankCacheDir, hex.EncodeToString(sum[:12])+"."+kind)
}

// rankCacheMagic starts every cache file: a file of another format (the
// gob files of the first version) is not read, and is replaced.
const rankCacheMagic = "recall rank cache 2\n"

// loadRankCache decodes kind's file into v when it was written for this
// very database file; false otherwise.
func (s *Store) loadRankCache(kind string, v encoding.BinaryUnmarshaler) bool {
	path := s.rankCacheFile(kind)
	id := fileID(s.path)
	if path == "" || id == "" {
		return false
	}
	b, err := os.ReadFile(path)
	if err != nil || !bytes.HasPrefix(b, []byte(rankCacheMagic)) {
		return false
	}
	b = b[len(rankCacheMagic):]
	n, k := binary.Uvarint(b)
	if k <= 0 || n > uint64(len(b)-k) || string(b[k:k+int(n)]) != id {
		return false
	}
	return v.UnmarshalBinary(b[k+int(n):]) == nil
}

// saveRankCache writes v as kind's file (owner-only, replaced whole).
// Failing to write is not an error: the next process reads the rows.
func (s *Store) saveRankCache(kind string, v encoding.BinaryMarshaler) {
	path := s.rankCacheFile(kind)
	id := fileID(s.path)
	if path == "" || id == "" {
		return
	}
	body, err := v.MarshalBinary()
	if err != nil {
		return
	}
	out := binary.AppendUvarint([]byte(rankCacheMagic), uint64(len(id)))
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

// removeRankCache deletes kind's file: the cache it held was found out of
// date, and the next process must not start from it again.
func (s *Store) removeRankCache(kind string) {
	if path := s.rankCacheFile(kind); path != "" {
		os.Remove(path)
	}
}
