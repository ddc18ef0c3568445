//go:build unix

package rowcache

import (
	"fmt"

	"golang.org/x/sys/unix"
)

// FileID names the file at path by device and inode ("" when it cannot be
// read): a database replaced by another file has another.
func FileID(path string) string {
	var st unix.Stat_t
	if unix.Stat(path, &st) != nil {
		return ""
	}
	return fmt.Sprintf("%d:%d", st.Dev, st.Ino)
}
