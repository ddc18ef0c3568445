//go:build unix

package importer

import (
	"os"
	"syscall"
)

// openNoBlock opens path with O_NONBLOCK, so that a named pipe with no
// writer returns at once instead of blocking in open(2); on a regular file
// the flag changes nothing.
func openNoBlock(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
