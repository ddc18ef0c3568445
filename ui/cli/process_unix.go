//go:build unix

package cli

import (
	"errors"
	"syscall"
)

// processAlive reports whether process pid exists (signal 0 checks without
// sending anything; EPERM means it exists under another user).
func processAlive(pid int) bool {
	return !errors.Is(syscall.Kill(pid, 0), syscall.ESRCH)
}
