//go:build unix && !linux

package budget

import (
	"syscall"
	"time"
)

// cpuClock is the CPU time this process has used: other systems have no
// per-thread rusage, and the whole process over-counts only when it does
// other work at the same time (the budget then ends sooner, never later).
type cpuClock struct{}

func threadClock() cpuClock { return cpuClock{} }

func (cpuClock) now() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return time.Duration(time.Now().UnixNano())
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
