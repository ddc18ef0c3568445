package cli

import (
	"fmt"
	"time"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer"
)

// atRisk lists, per source, the files its agent's retention deletes within
// importer.RetentionMargin that recall has not imported (never nil). A
// source that cannot be checked is left out: this is a warning, not a
// reason to fail the command.
func atRisk(env *Env, st *store.Store, srcs []importer.Source) []importer.AtRisk {
	out := []importer.AtRisk{}
	for _, src := range srcs {
		r, ok, err := importer.RetentionAtRisk(env.Ctx, st, src, time.Now())
		if err == nil && ok {
			out = append(out, r)
		}
	}
	return out
}

// warnAtRisk prints atRisk's lines on stderr.
func warnAtRisk(env *Env, st *store.Store, srcs []importer.Source) {
	for _, r := range atRisk(env, st, srcs) {
		fmt.Fprintln(env.Stderr, "warning: "+r.String())
	}
}
