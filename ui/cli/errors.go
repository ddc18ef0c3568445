package cli

import (
	"context"
	"errors"

	"github.com/recall-dev/recall/store"
)

// humanError is the message for err that a person can act on. Errors the
// store classifies are said in words; everything else keeps its own message.
func humanError(err error) string {
	switch {
	case errors.Is(err, context.Canceled):
		return "interrupted"
	case errors.Is(err, store.ErrReadOnly):
		return "the database is opened read-only (a Hermes database, or a newer schema): write into a recall database with --db"
	}
	return err.Error()
}
