package cli

import (
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/recall-dev/recall/store"
)

// defaultLockTimeout is how long import and watch wait for a write lock
// that another program holds without writing anything: far longer than any
// transaction recall makes, short enough that a forgotten `sqlite3` shell
// with an open transaction is reported within minutes.
const defaultLockTimeout = 3 * time.Minute

// lockNotice prints "waiting for the write lock held since ..." while a
// write of st waits for another program: redrawn in place on a terminal,
// once per wait elsewhere (a log gets one line, not one a second).
type lockNotice struct {
	w        io.Writer
	terminal bool
	cmd      string
	last     time.Time // Since of the wait last reported
	drew     bool
}

func watchLock(st *store.Store, w io.Writer, cmd string, timeout time.Duration) *lockNotice {
	n := &lockNotice{w: w, terminal: isTerminal(w), cmd: cmd}
	st.SetLockTimeout(timeout)
	st.OnLockWait(n.update)
	return n
}

func (n *lockNotice) update(lw store.LockWait) {
	line := fmt.Sprintf("%s: waiting for the write lock held since %s by another program (waited %s; giving up at %s, see --lock-timeout)",
		n.cmd, lw.Since.Format("15:04:05"), lw.Waited.Round(time.Second), lw.GiveUp.Format("15:04:05"))
	switch {
	case n.terminal:
		fmt.Fprintf(n.w, "\r%s\x1b[K", line)
		n.drew = true
	case !lw.Since.Equal(n.last):
		fmt.Fprintln(n.w, line)
	}
	n.last = lw.Since
}

// clear ends a line drawn in place, before other output.
func (n *lockNotice) clear() {
	if n != nil && n.drew {
		fmt.Fprint(n.w, "\r\x1b[K")
		n.drew = false
	}
}

// lockTimeoutError adds the flag to raise to a lock timeout's error line.
func lockTimeoutError(err error, timeout time.Duration) error {
	if errors.Is(err, store.ErrLocked) {
		return fmt.Errorf("%w (--lock-timeout %s)", err, timeout)
	}
	return err
}
