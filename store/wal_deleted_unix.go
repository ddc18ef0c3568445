//go:build unix

package store

import "syscall"

// dirWritable asks the OS whether the folder takes new files.
func dirWritable(dir string) bool {
	return syscall.Access(dir, 2 /* W_OK */) == nil
}
