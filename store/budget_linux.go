//go:build linux

package store

import (
	"time"

	"golang.org/x/sys/unix"
)

// threadCPU is the CPU time the calling OS thread has used (the search
// locks its goroutine to one thread while its budget runs).
func threadCPU() time.Duration {
	var ru unix.Rusage
	if unix.Getrusage(unix.RUSAGE_THREAD, &ru) != nil {
		return time.Duration(time.Now().UnixNano()) // no rusage: wall time
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
