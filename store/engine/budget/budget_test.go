package budget

import (
	"context"
	"errors"
	"runtime"
	"testing"
	"time"
)

// The search budget counts work, not waiting: time the thread spends off
// the CPU (a busy machine, a sleep) leaves it unspent, CPU time spends it,
// and the parent's cancellation ends it at once.
func TestCPUBudgetCountsWorkNotWaiting(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	b := New(context.Background(), 30*time.Millisecond)
	time.Sleep(150 * time.Millisecond)
	if err := b.Err(); err != nil {
		t.Fatalf("after 150 ms asleep the 30 ms budget says %v; waiting must not spend it", err)
	}
	deadline := time.Now().Add(10 * time.Second)
	x := 0
	for b.Err() == nil {
		for i := 0; i < 100_000; i++ {
			x += i
		}
		if time.Now().After(deadline) {
			t.Fatalf("10 s of busy work did not spend a 30 ms budget (%d)", x)
		}
	}
	if err := b.Err(); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("spent budget says %v, want DeadlineExceeded", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	c := New(ctx, time.Hour)
	cancel()
	if err := c.Err(); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled parent: %v, want Canceled", err)
	}
}

// The budget is the search thread's, whichever thread asks: a goroutine
// that runs SQL for the search runs SQLite's progress handler on a thread
// of its own, whose CPU time is not the search's.
func TestCPUBudgetIsItsThreadsFromAnyThread(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("other systems count the whole process")
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	b := New(context.Background(), 20*time.Millisecond)
	asked := make(chan error)
	go func() {
		runtime.LockOSThread() // another thread, busy past the budget's limit on its own clock
		defer runtime.UnlockOSThread()
		own := threadClock()
		for x := 0; own.now() < b.limit+10*time.Millisecond; x++ {
		}
		asked <- b.Err()
	}()
	if err := <-asked; err != nil {
		t.Fatalf("asked from a busy thread, the idle search thread's budget says %v", err)
	}
	for start := time.Now(); b.Err() == nil; {
		if time.Since(start) > 10*time.Second {
			t.Fatal("10 s of work on the search thread did not spend its 20 ms budget")
		}
	}
}
