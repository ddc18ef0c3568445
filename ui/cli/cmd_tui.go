package cli

import (
	"errors"
	"os"
	"strings"

	"github.com/muesli/termenv"
	"github.com/recall-dev/recall/assets"
	"github.com/recall-dev/recall/recall"
	"github.com/recall-dev/recall/recall/llm"
	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/ui"
)

func runTUI(env *Env, c *Command, args []string) error {
	fs := newFlags(c, env)
	query := fs.String("query", "", "start with this query typed in the search box")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 && *query == "" {
		*query = strings.Join(fs.Args(), " ")
	}
	st, err := env.openForRead()
	if err != nil {
		return err
	}
	defer st.Close()
	return openTUI(env, st, *query, "")
}

// errNoTerminal is returned when the TUI is asked for without a terminal.
var errNoTerminal = errors.New("the terminal UI needs a terminal; for scripts use 'recall search' or 'recall messages'")

// openTUI runs the TUI over st with the configured model (if any); notice is
// shown in the status line at start.
func openTUI(env *Env, st *store.Store, query, notice string) error {
	if !env.StdoutIsTerminal {
		return errNoTerminal
	}
	cfg, err := llm.Load(os.Getenv)
	if err != nil {
		notice = joinNotice(notice, "model config ignored: "+err.Error())
		cfg = nil
	}
	eng := recall.New(st, recall.Options{Sessions: recall.MaxSessions, LLM: cfg})
	style, err := tuiStyle()
	if err != nil {
		notice = joinNotice(notice, "markdown style: "+err.Error())
	}
	opts := ui.Options{Style: style, Query: query, Notice: joinNotice(st.Notice(), notice), NoColor: noColor(env)}
	return ui.Run(env.Ctx, ui.NewEngineBackend(eng, st), opts, env.Stdin, env.Stdout)
}

// noColor reports whether the TUI must draw without colour: NO_COLOR or
// CLICOLOR=0, or a terminal termenv rates colourless (TERM=dumb, or CI set,
// which termenv takes for "not a terminal"). Without colour the TUI still
// marks hits and the selection with reverse video and bold.
func noColor(env *Env) bool {
	return termenv.NewOutput(env.Stdout).EnvColorProfile() == termenv.Ascii
}

// tuiStyle is the pinned Glamour style embedded from assets/styles/recall.json.
func tuiStyle() ([]byte, error) {
	b, err := assets.Style("recall")
	if err != nil {
		if b2, err2 := assets.Style("recall.json"); err2 == nil {
			return b2, nil
		}
	}
	return b, err
}

func joinNotice(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + " · " + b
}
