//go:build linux

package budget

import (
	"time"

	"golang.org/x/sys/unix"
)

// cpuClock reads the CPU time of the OS thread it was made on (the search
// locks its goroutine to that thread while its budget runs), from any
// thread: SQLite's progress handler asks on whichever thread runs SQL on
// the connection, and a goroutine of the search's that did (reading an
// index's segments at once was tried) would otherwise count its own
// thread's unrelated time and end the budget at once. It is that thread's
// CLOCK_THREAD_CPUTIME_ID,
// exact to the nanosecond: getrusage(RUSAGE_THREAD) only moves at
// scheduler ticks (4 ms at HZ=250), so a short query could spend its whole
// budget between two readings and never be seen to.
type cpuClock struct{ id int32 }

// threadClock is the calling thread's CPU clock: the kernel's
// MAKE_THREAD_CPUCLOCK(tid, CPUCLOCK_SCHED), which pthread_getcpuclockid
// returns and clock_gettime reads from any thread of the process.
func threadClock() cpuClock { return cpuClock{id: int32(^uint32(unix.Gettid())<<3 | 6)} }

func (c cpuClock) now() time.Duration {
	var ts unix.Timespec
	if unix.ClockGettime(c.id, &ts) != nil {
		return time.Duration(time.Now().UnixNano()) // no thread clock: wall time
	}
	return time.Duration(ts.Nano())
}
