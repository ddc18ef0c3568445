package query

// Edits1 are the words one edit away from w, each once: transpositions
// and deletions, and unless cheap also replacements and insertions of a-z.
func Edits1(w string, cheap bool) []string {
	const letters = "abcdefghijklmnopqrstuvwxyz"
	seen := map[string]bool{w: true}
	var out []string
	add := func(s string) {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	for i := 0; i+1 < len(w); i++ {
		add(w[:i] + string(w[i+1]) + string(w[i]) + w[i+2:])
	}
	for i := 0; i < len(w); i++ {
		add(w[:i] + w[i+1:])
	}
	if cheap {
		return out
	}
	for i := 0; i <= len(w); i++ {
		for _, l := range letters {
			if i < len(w) {
				add(w[:i] + string(l) + w[i+1:])
			}
			add(w[:i] + string(l) + w[i:])
		}
	}
	return out
}
