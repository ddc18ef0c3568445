package store

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
	b := newCPUBudget(context.Background(), 30*time.Millisecond)
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
	c := newCPUBudget(ctx, time.Hour)
	cancel()
	if err := c.Err(); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled parent: %v, want Canceled", err)
	}
}
