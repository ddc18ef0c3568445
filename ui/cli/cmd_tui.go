package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/muesli/termenv"
	"github.com/recall-dev/recall/assets"
	"github.com/recall-dev/recall/recall"
	"github.com/recall-dev/recall/recall/llm"
	"github.com/recall-dev/recall/recall/secrets"
	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/ui"
)

func runTUI(env *Env, c *Command, args []string) error {
	fs := newFlags(c, env)
	query := fs.String("query", "", "start with this query typed in the search box")
	here := fs.Bool("here", false, "only sessions run in this repository (or directory); F7 switches to all")
	theme := fs.String("theme", "auto", "colours for a `light` or dark terminal background (auto: from $COLORFGBG, else dark)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 && *query == "" {
		*query = strings.Join(fs.Args(), " ")
	}
	notice := ""
	if env.didYouMean != "" {
		notice = fmt.Sprintf("searching for %q (for the command: recall %s …)", *query, env.didYouMean)
	}
	if !env.StdoutIsTerminal {
		if !env.implicitTUI {
			return errNoTerminal
		}
		// recall docker | head: what a script can read, the answer `recall
		// search docker` prints (recall alone: `recall recent`), with its
		// exit codes; the TUI only when asked for by name.
		if notice != "" {
			fmt.Fprintln(env.Stderr, "recall: "+notice)
		}
		return answerWithoutTerminal(env, *query, *here)
	}
	st, err := openWithNotice(env.Stdout, env.openForRead)
	if err != nil {
		return err
	}
	defer st.Close()
	defer warmInBackground(env, st)() // the first ranked search then reads no cache
	st.FinishDeferredTrigram(env.Ctx) // rows a stopped import left out of the trigram index
	th, err := pickTheme(*theme, os.Getenv("COLORFGBG"))
	if err != nil {
		return err
	}
	_, err = openTUI(env, st, tuiOptions{query: *query, here: *here, theme: th, notice: notice})
	return err
}

// answerWithoutTerminal runs `recall search [--here] QUERY`, or `recall
// recent [--here]` for no query: the default command's answer when stdout
// is a pipe or a file.
func answerWithoutTerminal(env *Env, query string, here bool) error {
	var args []string
	if here {
		args = append(args, "--here")
	}
	name := "recent"
	if strings.TrimSpace(query) != "" {
		name, args = "search", append(args, "--", query)
	}
	c, _ := lookup(env.table, name)
	return c.Run(env, c, args)
}

// errNoTerminal is returned when the TUI is asked for without a terminal.
var errNoTerminal = errors.New("the terminal UI needs a terminal; for scripts use 'recall search' or 'recall messages'")

// tuiOptions is how a command opens the TUI.
type tuiOptions struct {
	query, notice string
	// term is the terminal to draw on and read keys from; nil is stdin and
	// stdout (recall pick draws on /dev/tty: its stdout is the answer).
	term *os.File
	// pick makes enter end the TUI with the selected session (recall pick);
	// height > 0 draws it inline in that many lines, not on the alternate screen.
	pick   bool
	height int
	here   bool   // start scoped to this repository (--here)
	theme  string // "light" or "dark" ("" reads $COLORFGBG)
}

// tuiRecent is how many sessions the TUI lists with an empty search box:
// a screenful is never the whole history, and the list is one indexed
// query (newest activity first, a preview each), so a long one costs
// little; a search still shows Hermes's 10 best sessions.
const tuiRecent = 200

// openTUI runs the TUI over st with the configured model (if any). With
// o.pick it returns the session chosen ("" when none was).
func openTUI(env *Env, st *store.Store, o tuiOptions) (string, error) {
	var in io.Reader = env.Stdin
	var out io.Writer = env.Stdout
	if o.term != nil {
		in, out = o.term, o.term
	}
	notice := o.notice
	cfg, err := llm.Load(os.Getenv)
	if err != nil {
		notice = joinNotice(notice, "model config ignored: "+err.Error())
		cfg = nil
	}
	eng := recall.New(st, recall.Options{Sessions: recall.MaxSessions, Recent: tuiRecent, LLM: cfg})
	theme := o.theme
	if theme == "" {
		theme, _ = pickTheme("auto", os.Getenv("COLORFGBG"))
	}
	style, err := themeStyle(theme)
	if err != nil {
		notice = joinNotice(notice, "markdown style: "+err.Error())
	}
	// A broken "keys" object is treated as a broken model config is: the
	// TUI starts (with the default keys) and says why in its status line.
	keys, err := loadKeys(os.Getenv)
	if err != nil {
		notice = joinNotice(notice, "key bindings ignored: "+err.Error())
	}
	opts := ui.Options{Style: style, Query: o.query, Notice: joinNotice(st.Notice(), notice), NoColor: noColor(out),
		Pick: o.pick, Height: o.height, ResumeLine: resumeLine, Project: projectDir(), Here: o.here,
		Light: theme == "light", Keys: keys}
	// The engine redacts the lists; the TUI reads transcripts as stored and
	// redacts what it shows of them itself, unless the person pressed V.
	b := ui.NewEngineBackend(eng, secrets.AsStored(st))
	if o.pick {
		return ui.Pick(env.Ctx, b, opts, in, out)
	}
	return "", ui.Run(env.Ctx, b, opts, in, out)
}

// noColor reports whether the TUI must draw on out without colour: NO_COLOR
// or CLICOLOR=0, or a terminal termenv rates colourless (TERM=dumb, or CI
// set, which termenv takes for "not a terminal"). Without colour the TUI
// still marks hits and the selection with reverse video and bold.
func noColor(out io.Writer) bool {
	return termenv.NewOutput(out).EnvColorProfile() == termenv.Ascii
}

// openWithNotice opens the store; when the search engine has never run on
// this machine (SQLite's WebAssembly is compiled once, ~2 s, then cached) it
// says so on the terminal first, instead of a blank screen, and wipes the
// line once the store is open.
func openWithNotice(term io.Writer, open func() (*store.Store, error)) (*store.Store, error) {
	if !compileCacheCold() {
		return open()
	}
	fmt.Fprint(term, "recall: preparing the search engine (first run only)…")
	st, err := open()
	fmt.Fprint(term, "\r\x1b[2K")
	return st, err
}

// compileCacheCold reports whether wazero has no compiled SQLite in the
// store's compile cache for this build. wazero keeps it under
// <dir>/wazero-<its version>-<arch>-<os>, its version being what the
// build's go.mod requires ("dev" when the build records none).
func compileCacheCold() bool {
	dir := store.CompileCacheDir
	if dir == "" {
		return false // no cache: every run compiles, and it is not a first run
	}
	version := "dev"
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, dep := range info.Deps {
			if dep.Path == "github.com/tetratelabs/wazero" && dep.Version != "" && dep.Version != "(devel)" {
				version = dep.Version
			}
		}
	}
	entries, err := os.ReadDir(filepath.Join(dir, "wazero-"+version+"-"+runtime.GOARCH+"-"+runtime.GOOS))
	return err != nil || len(entries) == 0
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
