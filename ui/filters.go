package ui

import (
	"strings"
	"time"

	"github.com/recall-dev/recall/ui/termtext"

	"github.com/recall-dev/recall/store"
)

// filterSet is the role, source and time filters, cycled from the keyboard
// and shown as chips under the search box.
type filterSet struct {
	role    int // index into roleChoices
	source  int // index into sources; 0 is "any"
	span    int // index into timeChoices
	sources []string
}

var roleChoices = []string{"", "user", "assistant", "tool"}

var timeChoices = []struct {
	label string
	d     time.Duration
}{{"", 0}, {"24h", 24 * time.Hour}, {"7d", 7 * 24 * time.Hour}, {"30d", 30 * 24 * time.Hour}, {"1y", 365 * 24 * time.Hour}}

// defaultSources are offered before any session reveals the sources present.
var defaultSources = []string{"cli", "telegram", "claude-code", "codex", "gemini-cli"}

func newFilterSet(sources []string) filterSet {
	if len(sources) == 0 {
		sources = defaultSources
	}
	return filterSet{sources: append([]string{""}, sources...)}
}

// learnSources adds sources seen in results to the cycle, so the filter
// offers what the database holds.
func (f *filterSet) learnSources(items []Item) {
	for _, it := range items {
		if it.Source == "" {
			continue
		}
		known := false
		for _, s := range f.sources {
			if s == it.Source {
				known = true
				break
			}
		}
		if !known {
			f.sources = append(f.sources, it.Source)
		}
	}
}

func (f *filterSet) cycleRole()   { f.role = (f.role + 1) % len(roleChoices) }
func (f *filterSet) cycleSource() { f.source = (f.source + 1) % len(f.sources) }
func (f *filterSet) cycleTime()   { f.span = (f.span + 1) % len(timeChoices) }
func (f *filterSet) clear()       { f.role, f.source, f.span = 0, 0, 0 }

// active reports whether any filter narrows the results.
func (f *filterSet) active() bool { return f.role != 0 || f.source != 0 || f.span != 0 }

// search returns the store filter for a query.
func (f *filterSet) search(now time.Time) store.SearchFilter {
	var sf store.SearchFilter
	if r := roleChoices[f.role]; r != "" {
		sf.Roles = []string{r}
	}
	if s := f.sources[f.source]; s != "" {
		sf.Sources = []string{s}
	}
	if d := timeChoices[f.span].d; d > 0 {
		sf.Since = now.Add(-d)
	}
	return sf
}

// list returns the list options for browsing (the role filter does not
// apply to whole sessions).
func (f *filterSet) list(now time.Time, limit int) store.ListOptions {
	o := store.ListOptions{Limit: limit}
	if s := f.sources[f.source]; s != "" {
		o.Sources = []string{s}
	}
	if d := timeChoices[f.span].d; d > 0 {
		o.Since = now.Add(-d)
	}
	return o
}

// chips renders the filter line at width w.
func (f *filterSet) chips(st *Styles, keys *KeyMap, w int) string {
	var parts []string
	if r := roleChoices[f.role]; r != "" {
		parts = append(parts, st.Chip.Active.Render("role:"+r))
	}
	if s := f.sources[f.source]; s != "" {
		parts = append(parts, st.Chip.Active.Render("source:"+termtext.Sanitize(s)))
	}
	if t := timeChoices[f.span].label; t != "" {
		parts = append(parts, st.Chip.Active.Render("last "+t))
	}
	hint := "filters: " + keys.FilterRole.Help().Key + " role · " + keys.FilterSource.Help().Key +
		" source · " + keys.FilterTime.Help().Key + " time"
	if len(parts) > 0 {
		hint = keys.ClearFilters.Help().Key + " clears"
	}
	parts = append(parts, st.Chip.Hint.Render(hint))
	return truncate(strings.Join(parts, " "), w)
}
