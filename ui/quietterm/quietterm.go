// Package quietterm keeps Bubble Tea v1 from querying the terminal while
// the program starts.
//
// Bubble Tea v1's package init calls lipgloss.HasDarkBackground, which, when
// stdout is a terminal, writes an OSC 11 background-colour query and a
// cursor-position request and waits up to termenv.OSCTimeout (5 s) for the
// answers. A terminal that does not answer (script(1), an editor's
// terminal, a pre-commit runner, some ssh set-ups) stalls every recall
// command, `recall help` included, for those 5 s, and one that answers late
// leaves the reply typed at the prompt. recall needs no answer: its Glamour
// style is pinned and its styles hold no adaptive colours.
//
// termenv asks nothing of a terminal whose TERM is "dumb", so this package
// sets TERM=dumb in its init and Restore puts the real value back. It
// imports nothing but os, so Go initialises it before Bubble Tea: packages
// are initialised in the order of their import paths among those whose
// imports are done (the Go spec, since Go 1.21), this path sorts before
// os/signal, which Bubble Tea imports, and it needs only os, which os/signal
// needs too. The test that runs the binary on a terminal that never
// answers (ui/startup_pty_test.go) fails if that ever changes.
//
// Package ui calls Restore from its own init, which runs after Bubble
// Tea's, so nothing but package initialisation ever sees the fake TERM.
package quietterm

import "os"

var (
	term, hadTerm = "", false
	active        = false
)

func init() {
	term, hadTerm = os.LookupEnv("TERM")
	active = os.Setenv("TERM", "dumb") == nil
}

// Restore puts back the TERM the process started with. Calling it again
// does nothing.
func Restore() {
	if !active {
		return
	}
	active = false
	if hadTerm {
		os.Setenv("TERM", term)
	} else {
		os.Unsetenv("TERM")
	}
}
