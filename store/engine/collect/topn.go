// Package collect keeps the best of what the scorer scores: the best rows
// of a ranked expression (Best), and for a plain query every matching
// message folded into its session's key as it streams past (Sessions),
// the sessions put in key order and handed out a batch at a time with
// their rows (Ranking). It takes scored rows and gives them in order; the
// filters and the text are fill's.
package collect

import "slices"

// TopN returns the m best items of all (by better), best first, in
// O(len(all) log m): a broad query has hundreds of thousands of rows and a
// page needs a few hundred.
func TopN[T any](all []T, m int, better func(a, b T) bool) []T {
	m = min(m, len(all))
	h := make([]T, 0, max(m, 0))
	for _, x := range all {
		h = KeepBest(h, m, x, better)
	}
	return SortBest(h, better)
}

// KeepBest adds x to h, a min-heap of at most m items (its root the worst
// kept), if there is room or x is better than the root. A caller that can
// tell cheaply that x is not better than h[0] skips the call: most items
// of a ranking are not.
func KeepBest[T any](h []T, m int, x T, better func(a, b T) bool) []T {
	if m <= 0 {
		return h
	}
	if len(h) < m {
		h = append(h, x)
		for i := len(h) - 1; i > 0; {
			parent := (i - 1) / 2
			if !better(h[parent], h[i]) {
				break
			}
			h[i], h[parent] = h[parent], h[i]
			i = parent
		}
		return h
	}
	if !better(x, h[0]) {
		return h
	}
	h[0] = x
	for i := 0; ; {
		l, worst := 2*i+1, i
		if l < len(h) && better(h[worst], h[l]) {
			worst = l
		}
		if r := l + 1; r < len(h) && better(h[worst], h[r]) {
			worst = r
		}
		if worst == i {
			break
		}
		h[i], h[worst] = h[worst], h[i]
		i = worst
	}
	return h
}

// SortBest sorts the kept items best first.
func SortBest[T any](h []T, better func(a, b T) bool) []T {
	slices.SortFunc(h, func(a, b T) int {
		switch {
		case better(a, b):
			return -1
		case better(b, a):
			return 1
		}
		return 0
	})
	return h
}
