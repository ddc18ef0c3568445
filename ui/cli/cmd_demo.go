package cli

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"

	"github.com/recall-dev/recall/assets"
	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer/jsonl"
)

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
	dir, err := os.MkdirTemp("", "recall-demo-*")
	if err != nil {
		return fmt.Errorf("create demo directory: %w", err)
	}
	defer os.RemoveAll(dir)
	st, err := store.Open(env.Ctx, filepath.Join(dir, "demo.db"), store.Options{Create: true})
	if err != nil {
		return err
	}
	defer st.Close()
	if _, err := jsonl.ImportReader(env.Ctx, st, "demo.jsonl", bytes.NewReader(assets.DemoJSONL())); err != nil {
		return fmt.Errorf("import demo history: %w", err)
	}
	return openTUI(env, st, *query, "demo history in a temporary database")
}
