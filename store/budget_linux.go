//go:build linux

package store

import (
	"time"

	"golang.org/x/sys/unix"
)

// threadCPU is the CPU time the calling OS thread has used (the search
// locks its goroutine to one thread while its budget runs). It reads
// CLOCK_THREAD_CPUTIME_ID, which is exact to the nanosecond:
// getrusage(RUSAGE_THREAD) only moves at scheduler ticks (4 ms at HZ=250),
// so a short query could spend its whole budget between two readings and
// never be seen to.
func threadCPU() time.Duration {
	var ts unix.Timespec
	if unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts) != nil {
		return time.Duration(time.Now().UnixNano()) // no thread clock: wall time
	}
	return time.Duration(ts.Nano())
}
