package ui

import (
	"slices"
	"time"
)

// byRecency reorders search results newest first by the time of their best
// hit (its message's timestamp, else the session's start): the sort key
// switches a query's list between relevance (the engine's order) and
// recency, as atuin and fzf's --no-sort users expect.
func byRecency(items []Item) []Item {
	out := slices.Clone(items)
	slices.SortStableFunc(out, func(a, b Item) int { return hitTime(b).Compare(hitTime(a)) })
	return out
}

// hitTime is when a result's best hit was written.
func hitTime(it Item) time.Time {
	for _, m := range it.Result.Messages {
		if m.ID == it.MatchMessageID && !m.Timestamp.IsZero() {
			return m.Timestamp
		}
	}
	return it.When
}
