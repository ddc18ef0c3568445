package store

import (
	"context"
	"sync/atomic"
	"time"
)

// A search's budget is counted in the CPU time its thread spends, not in
// wall-clock time: on a machine busy with other work (a build, a video
// call, a CI runner's other jobs) a query that costs 50 ms of CPU may take
// a second of wall time, and cutting it short there would give a partial
// answer to an ordinary query. CPU time still stops the query shapes that
// really cost too much, which is what the budget is for. SQLite's progress
// handler asks the connection's interrupt context for Err() every 1,000
// virtual-machine steps, which is where this budget is read.

// cpuBudget is a context that ends when its parent does, or once the
// calling thread has used d of CPU time since it was made, whichever comes
// first; it then reports context.DeadlineExceeded. The goroutine that uses
// it must stay locked to its OS thread (runtime.LockOSThread) meanwhile.
type cpuBudget struct {
	context.Context
	limit time.Duration // threadCPU() value at which it ends
	spent atomic.Bool
}

func newCPUBudget(parent context.Context, d time.Duration) *cpuBudget {
	return &cpuBudget{Context: parent, limit: threadCPU() + d}
}

// Err reports the parent's error, else DeadlineExceeded once the budget is spent.
func (b *cpuBudget) Err() error {
	if err := b.Context.Err(); err != nil {
		return err
	}
	if b.spent.Load() {
		return context.DeadlineExceeded
	}
	if threadCPU() >= b.limit {
		b.spent.Store(true)
		return context.DeadlineExceeded
	}
	return nil
}
