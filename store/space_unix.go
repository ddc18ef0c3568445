//go:build unix

package store

import (
	"path/filepath"

	"golang.org/x/sys/unix"
)

// noSpaceLeft reports whether the file system holding path has less than
// 1 MiB left for this user: an I/O error on a write there means the disk
// is full.
func noSpaceLeft(path string) bool {
	var st unix.Statfs_t
	if err := unix.Statfs(filepath.Dir(path), &st); err != nil {
		return false
	}
	return uint64(st.Bavail)*uint64(st.Bsize) < 1<<20
}
