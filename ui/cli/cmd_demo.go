package cli

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/recall-dev/recall/assets"
	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer/jsonl"
)

// demoDirPrefix names the demo's temporary directories; the process id in
// the name lets a later demo remove what a killed one (kill -9, a crash)
// could not.
const demoDirPrefix = "recall-demo-"

func runDemo(env *Env, c *Command, args []string) error {
	fs := newFlags(c, env)
	query := fs.String("query", "", "start with this query typed in the search box")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError("unexpected argument %q", fs.Arg(0))
	}
	if !env.StdoutIsTerminal {
		return errNoTerminal
	}
	removeStaleDemoDirs(os.TempDir())
	dir, err := os.MkdirTemp("", demoDirPrefix+strconv.Itoa(os.Getpid())+"-*")
	if err != nil {
		return fmt.Errorf("create demo directory: %w", err)
	}
	// Every way out comes back here: quitting, Ctrl-C, SIGTERM and SIGHUP
	// (main turns them into a cancelled context), an error.
	defer os.RemoveAll(dir)
	st, err := openWithNotice(env.Stdout, func() (*store.Store, error) {
		return store.Open(env.Ctx, filepath.Join(dir, "demo.db"), store.Options{Create: true})
	})
	if err != nil {
		return err
	}
	defer st.Close()
	if _, err := jsonl.ImportReader(env.Ctx, st, "demo.jsonl", bytes.NewReader(assets.DemoJSONL())); err != nil {
		return fmt.Errorf("import demo history: %w", err)
	}
	_, err = openTUI(env, st, tuiOptions{query: *query, notice: "demo history in a temporary database"})
	return err
}

// removeStaleDemoDirs deletes the demo directories under tmp whose process
// is gone. A directory of a live process, or whose name carries no process
// id (an older recall's), is left alone.
func removeStaleDemoDirs(tmp string) {
	dirs, _ := filepath.Glob(filepath.Join(tmp, demoDirPrefix+"*-*"))
	for _, d := range dirs {
		rest := strings.TrimPrefix(filepath.Base(d), demoDirPrefix)
		pid, err := strconv.Atoi(rest[:max(0, strings.IndexByte(rest, '-'))])
		if err != nil || pid <= 0 || pid == os.Getpid() {
			continue
		}
		if !processAlive(pid) {
			if _, err := os.Stat(filepath.Join(d, "demo.db")); err == nil {
				os.RemoveAll(d)
			}
		}
	}
}
