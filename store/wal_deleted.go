package store

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// ErrWALDeleted: the database's -wal file was deleted while a program had
// the database open (its -shm still counts frames in it). The transactions
// in it live on only in that program, which checkpoints them as it closes;
// opening the file meanwhile would read a database without them.
var ErrWALDeleted = errors.New("-wal deleted")

// walFramesLost reports a -shm whose WAL index counts frames while the
// -wal is missing or empty, in a folder recall may write (so not the
// read-only storage onReadOnlyStorage is about), and how many frames.
func walFramesLost(path string) (uint32, bool) {
	if fi, err := os.Stat(path + "-wal"); err == nil && fi.Size() > 0 {
		return 0, false
	}
	if !dirWritable(filepath.Dir(path)) {
		return 0, false
	}
	f, err := os.Open(path + "-shm")
	if err != nil {
		return 0, false
	}
	defer f.Close()
	var h [48]byte
	if _, err := io.ReadFull(f, h[:]); err != nil {
		return 0, false
	}
	// The WAL-index header (native byte order): iVersion at 0, isInit at
	// 12, mxFrame at 16; 3007000 is the only version there is.
	for _, bo := range []binary.ByteOrder{binary.LittleEndian, binary.BigEndian} {
		if bo.Uint32(h[0:4]) == 3007000 {
			n := bo.Uint32(h[16:20])
			return n, h[12] != 0 && n > 0
		}
	}
	return 0, false
}

// walDeletedError is the one line for ErrWALDeleted.
func walDeletedError(path string, frames uint32) error {
	return &Error{Path: path, Kind: ErrWALDeleted, Err: fmt.Errorf("its -shm still counts %d frames", frames)}
}

// keepCompanionPrivate gives a -wal or -shm that the read-only probe just
// created (it did not exist before) the database file's permission bits:
// the driver creates them with 0644 less the umask.
func keepCompanionPrivate(path string, existed map[string]bool) {
	db, err := os.Stat(path)
	if err != nil {
		return
	}
	for _, suffix := range []string{"-wal", "-shm"} {
		if existed[suffix] {
			continue
		}
		if fi, err := os.Stat(path + suffix); err == nil && fi.Mode().Perm() != db.Mode().Perm() {
			_ = os.Chmod(path+suffix, db.Mode().Perm())
		}
	}
}

// companionsPresent records which of -wal and -shm exist now.
func companionsPresent(path string) map[string]bool {
	out := map[string]bool{}
	for _, suffix := range []string{"-wal", "-shm"} {
		_, err := os.Stat(path + suffix)
		out[suffix] = !errors.Is(err, fs.ErrNotExist)
	}
	return out
}
