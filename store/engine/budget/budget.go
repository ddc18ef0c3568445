// Package budget bounds one search's work by the CPU time its thread
// spends: it takes the caller's context and a duration and gives a
// context that SQLite's progress handler reads (an interrupted statement
// ends the search with what it found so far); Unbudgeted pauses it for a
// cache fill that is not the query's cost.
package budget

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/ncruces/go-sqlite3"
)

// A search's budget is counted in the CPU time its thread spends, not in
// wall-clock time: on a machine busy with other work (a build, a video
// call, a CI runner's other jobs) a query that costs 50 ms of CPU may take
// a second of wall time, and cutting it short there would give a partial
// answer to an ordinary query. CPU time still stops the query shapes that
// really cost too much, which is what the budget is for. SQLite's progress
// handler asks the connection's interrupt context for Err() every 1,000
// virtual-machine steps, which is where this budget is read.

// Budget is a context that ends when its parent does, or once the
// calling thread has used d of CPU time since it was made, whichever comes
// first; it then reports context.DeadlineExceeded. The goroutine that uses
// it must stay locked to its OS thread (runtime.LockOSThread) meanwhile.
type Budget struct {
	context.Context
	clock cpuClock      // the search's thread's
	limit time.Duration // clock value at which it ends
	spent atomic.Bool
	calls atomic.Uint32
}

// clockEvery is how many Err calls share one reading of the thread's
// clock. A reading is a system call (about 1.4 µs here) and the progress
// handler asks every 1,000 SQLite steps, which cost a final-phase search
// 15-20% (BenchmarkSearchBudgetCost); one in 16 brings that to noise, and
// the budget is overrun by at most 16,000 steps (well under a millisecond).
const clockEvery = 16

// New is a budget of d CPU time for the calling thread, under parent.
func New(parent context.Context, d time.Duration) *Budget {
	clk := threadClock()
	return &Budget{Context: parent, clock: clk, limit: clk.now() + d}
}

// Err reports the parent's error, else DeadlineExceeded once the budget is spent.
func (b *Budget) Err() error {
	if err := b.Context.Err(); err != nil {
		return err
	}
	if b.spent.Load() {
		return context.DeadlineExceeded
	}
	if b.calls.Add(1)%clockEvery != 1 { // the first call reads the clock
		return nil
	}
	if b.clock.now() >= b.limit {
		b.spent.Store(true)
		return context.DeadlineExceeded
	}
	return nil
}

// Unbudgeted runs fn with the connection's search budget (if any) paused:
// filling a cache once per process (a table's row lengths, store/engine/rowcache)
// is not the cost of the query that happens to come first.
func Unbudgeted(db *sqlite3.Conn, fn func() error) error {
	b, ok := db.GetInterrupt().(*Budget)
	if !ok {
		return fn()
	}
	db.SetInterrupt(b.Context)
	start := b.clock.now()
	err := fn()
	b.limit += b.clock.now() - start
	db.SetInterrupt(b)
	return err
}
