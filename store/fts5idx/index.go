package fts5idx

import "slices"

// Main is the byte that starts every term of the main index; prefix index
// i (1-based, in the order of the table's prefix= option) uses Main+i
// (fts5_index.c: FTS5_MAIN_PREFIX).
const Main = '0'

// Postings returns the current doclist of the index term key (its first
// byte names the index: Main, or a prefix index), over every segment:
// ascending rowids, each row's newest entry, deleted rows left out. With
// prefix, every term starting with key is read and a row's postings are
// combined (Tf summed, Pos nil).
func Postings(src Source, st Structure, key []byte, prefix bool) ([]Posting, error) {
	byTerm := map[string][]Posting{}
	var order []string
	for _, seg := range st.Segments { // oldest first
		sc := scan{src: src, seg: seg}
		err := sc.terms(key, prefix, func(term []byte, ps []Posting) {
			t := string(term)
			old, seen := byTerm[t]
			if !seen {
				order = append(order, t)
			}
			byTerm[t] = newestWins(old, ps)
		})
		if err != nil {
			return nil, err
		}
	}
	var out []Posting
	for i, t := range order {
		live := slices.DeleteFunc(byTerm[t], func(p Posting) bool { return p.del })
		if i == 0 {
			out = live
			continue
		}
		out = combine(out, live)
	}
	return out, nil
}

// newestWins merges two ascending doclists of one term; where both hold a
// row, the entry of newer (from the later segment) is kept, delete
// markers included (they hide the older entry until the end).
func newestWins(older, newer []Posting) []Posting {
	if len(older) == 0 {
		return newer
	}
	if len(newer) == 0 {
		return older
	}
	if older[len(older)-1].Rowid < newer[0].Rowid {
		return append(older, newer...)
	}
	out := make([]Posting, 0, len(older)+len(newer))
	i, j := 0, 0
	for i < len(older) && j < len(newer) {
		switch a, b := older[i].Rowid, newer[j].Rowid; {
		case a < b:
			out = append(out, older[i])
			i++
		case a > b:
			out = append(out, newer[j])
			j++
		default:
			out = append(out, newer[j])
			i++
			j++
		}
	}
	out = append(out, older[i:]...)
	return append(out, newer[j:]...)
}

// combine merges the doclists of two different terms (a prefix query): a
// row in both counts the positions of both.
func combine(a, b []Posting) []Posting {
	out := make([]Posting, 0, max(len(a), len(b)))
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch x, y := a[i].Rowid, b[j].Rowid; {
		case x < y:
			out = append(out, Posting{Rowid: x, Tf: a[i].Tf})
			i++
		case x > y:
			out = append(out, Posting{Rowid: y, Tf: b[j].Tf})
			j++
		default:
			out = append(out, Posting{Rowid: x, Tf: a[i].Tf + b[j].Tf})
			i++
			j++
		}
	}
	for ; i < len(a); i++ {
		out = append(out, Posting{Rowid: a[i].Rowid, Tf: a[i].Tf})
	}
	for ; j < len(b); j++ {
		out = append(out, Posting{Rowid: b[j].Rowid, Tf: b[j].Tf})
	}
	return out
}
