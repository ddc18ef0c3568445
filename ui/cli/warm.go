package cli

import (
	"context"

	"github.com/recall-dev/recall/store"
)

// warmInBackground fills the store's ranking caches while the command
// starts (store.Warm); the returned function stops it and waits, so the
// store is never closed under it.
func warmInBackground(env *Env, st *store.Store) (stop func()) {
	ctx, cancel := context.WithCancel(env.Ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		st.Warm(ctx)
	}()
	return func() {
		cancel()
		<-done
	}
}
