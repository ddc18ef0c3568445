package cli

import (
	"fmt"

	"github.com/recall-dev/recall/store"
)

func runMigrate(env *Env, c *Command, args []string) error {
	fs := newFlags(c, env)
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError("unexpected argument %q (the database is given with --db PATH)", fs.Arg(0))
	}
	if !env.DBExplicit {
		return usageError("--db PATH is required: migrate changes the file, so name it explicitly")
	}
	from, to, err := store.Migrate(env.Ctx, env.DBPath)
	if err != nil {
		return err
	}
	if from == to {
		fmt.Fprintf(env.Stdout, "%s is already at schema version %d; recall's indexes are up to date\n", env.DBPath, to)
		return nil
	}
	fmt.Fprintf(env.Stdout, "migrated %s from schema version %d to %d\n", env.DBPath, from, to)
	return nil
}
