package syncer

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
)

// installHint is how to put recall on a host.
const installHint = "install it there (go install github.com/recall-dev/recall@latest, or copy this binary into a folder on the host's PATH), " +
	`or name it in config.json: {"sync": {"remote_command": "/path/to/recall"}}`

// HostError is a host that could not be synced, said in one line.
type HostError struct {
	Host string
	Msg  string
}

func (e *HostError) Error() string { return e.Host + ": " + e.Msg }

// quote is s as one word for the remote shell.
func quote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./=:,@+%", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// Quote joins words into one command line for a remote shell.
func Quote(words ...string) string {
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = quote(w)
	}
	return strings.Join(q, " ")
}

// remote runs recall's args on host through the transport: stdin (may be
// nil) goes to it, its standard output to stdout. A failure comes back as
// a *HostError saying what went wrong in one line.
func (s *Syncer) remote(ctx context.Context, host string, args []string, stdin io.Reader, stdout io.Writer) error {
	line := s.cfg.RemoteCommand + " " + Quote(args...)
	// "--": a host is never taken for an option.
	argv := append(append([]string{}, s.ssh...), "--", host, line)
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Stdin, cmd.Stdout = stdin, stdout
	var stderr bytes.Buffer
	cmd.Stderr = &limited{w: &stderr, n: 64 << 10}
	err := cmd.Run()
	if err == nil {
		return nil
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	var exit *exec.ExitError
	if !errors.As(err, &exit) {
		return &HostError{Host: host, Msg: fmt.Sprintf("cannot run %s: %v (set RECALL_SSH to the ssh command to use)", argv[0], err)}
	}
	return &HostError{Host: host, Msg: explain(exit.ExitCode(), stderr.String(), args)}
}

// explain turns the transport's failure into one line that says what to do.
func explain(code int, stderr string, args []string) string {
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	last := strings.TrimSpace(lines[len(lines)-1])
	low := strings.ToLower(stderr)
	switch {
	case code == 127 || strings.Contains(low, "command not found") || strings.Contains(low, "not found") && strings.Contains(low, "recall"):
		return "recall is not installed there (" + oneLine(last) + "): " + installHint
	case code == 255:
		// ssh's own failure: host down, refused, unknown, authentication.
		if last == "" {
			last = "ssh failed (exit 255)"
		}
		return oneLine(last)
	case code == 2 && (strings.Contains(low, "flag provided but not defined") || strings.Contains(low, "unknown flag") ||
		strings.Contains(low, "unknown command") || strings.Contains(low, "unknown source")):
		return "the recall there is older than sync (" + oneLine(last) + "): upgrade it there (go install github.com/recall-dev/recall@latest)"
	}
	if last == "" {
		last = fmt.Sprintf("exit status %d", code)
	}
	return "recall " + args[0] + " failed there: " + oneLine(strings.TrimPrefix(last, "recall "+args[0]+": "))
}

func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 300 {
		s = string(r[:300]) + "…"
	}
	return s
}

// limited keeps the first n bytes written to it and drops the rest.
type limited struct {
	w io.Writer
	n int
}

func (l *limited) Write(p []byte) (int, error) {
	if l.n > 0 {
		k := min(len(p), l.n)
		l.w.Write(p[:k])
		l.n -= k
	}
	return len(p), nil
}
