package ui

import (
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/recall-dev/recall/recall"

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
	// project is the repository (or directory) recall was started in;
	// here scopes everything to sessions run there (atuin's filter modes,
	// the agents' own pickers): the scope key cycles this repo / all.
	project string
	here    bool
}

var roleChoices = []string{"", "user", "assistant", "tool"}

var timeChoices = []struct {
	label string
	d     time.Duration
}{{"", 0}, {"24h", 24 * time.Hour}, {"7d", 7 * 24 * time.Hour}, {"30d", 30 * 24 * time.Hour}, {"1y", 365 * 24 * time.Hour}}

// newFilterSet offers the sources given (tests, a caller that knows them);
// the database's own list replaces them when it arrives (setSources).
func newFilterSet(sources []string) filterSet {
	f := filterSet{sources: []string{""}}
	f.addSources(sources)
	return f
}

// setSources makes the source cycle what the database holds, keeping the
// current choice (a source imported since is added, not lost). Sources that
// recall never lists (sub-agents, tools) are not offered: choosing one would
// always find nothing.
func (f *filterSet) setSources(sources []string) {
	cur := f.sources[f.source]
	f.sources = []string{""}
	f.addSources(sources)
	f.source = 0
	if cur != "" {
		f.addSources([]string{cur})
		f.source = slices.Index(f.sources, cur)
	}
}

// learnSources adds sources seen in results to the cycle: a source
// imported while the TUI is open becomes choosable.
func (f *filterSet) learnSources(items []Item) {
	for _, it := range items {
		f.addSources([]string{it.Source})
	}
}

func (f *filterSet) addSources(sources []string) {
	for _, s := range sources {
		if s != "" && !slices.Contains(f.sources, s) && !slices.Contains(recall.HiddenSources, s) {
			f.sources = append(f.sources, s)
		}
	}
}

// machinePrefix marks a choice of the source cycle that is a machine
// ("@devbox": sessions synced from it), not a source.
const machinePrefix = "@"

// machineChoices are the source cycle's machine entries: one per machine
// sessions were synced from, and "@local" for this machine's own.
func machineChoices(hosts map[string]string) []string {
	if len(hosts) == 0 {
		return nil
	}
	var out []string
	for _, h := range hosts {
		if c := machinePrefix + h; !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	slices.Sort(out)
	return append(out, machinePrefix+"local")
}

// sourceOrMachine splits the source cycle's choice into a source filter and
// a machine filter.
func sourceOrMachine(choice string) (sources, machines []string) {
	switch {
	case choice == "":
	case strings.HasPrefix(choice, machinePrefix):
		machines = []string{strings.TrimPrefix(choice, machinePrefix)}
	default:
		sources = []string{choice}
	}
	return sources, machines
}

// chipName is the chip of the source cycle's choice.
func chipName(choice string) string {
	if strings.HasPrefix(choice, machinePrefix) {
		return "machine:" + termtext.Sanitize(strings.TrimPrefix(choice, machinePrefix))
	}
	return "source:" + termtext.Sanitize(choice)
}

// describe names the active filters ("role:user source:codex"), "" when none.
func (f *filterSet) describe() string {
	var parts []string
	if r := roleChoices[f.role]; r != "" {
		parts = append(parts, "role:"+r)
	}
	if s := f.sources[f.source]; s != "" {
		parts = append(parts, chipName(s))
	}
	if t := timeChoices[f.span].label; t != "" {
		parts = append(parts, "last "+t)
	}
	if f.here {
		parts = append(parts, "repo:"+f.projectName())
	}
	return strings.Join(parts, " ")
}

func (f *filterSet) cycleRole()   { f.role = (f.role + 1) % len(roleChoices) }
func (f *filterSet) cycleSource() { f.source = (f.source + 1) % len(f.sources) }
func (f *filterSet) cycleTime()   { f.span = (f.span + 1) % len(timeChoices) }
func (f *filterSet) clear()       { f.role, f.source, f.span, f.here = 0, 0, 0, false }

// cycleScope switches between this repository's sessions and all.
func (f *filterSet) cycleScope() { f.here = !f.here && f.project != "" }

// projectName is the scope's last path element, for the chip.
func (f *filterSet) projectName() string {
	return termtext.OneLine(termtext.Sanitize(filepath.Base(f.project)))
}

// cwd is the directory the scope limits to, "" for all.
func (f *filterSet) cwd() string {
	if f.here {
		return f.project
	}
	return ""
}

// active reports whether any filter narrows the results.
func (f *filterSet) active() bool { return f.role != 0 || f.source != 0 || f.span != 0 || f.here }

// search returns the store filter for a query.
func (f *filterSet) search(now time.Time) store.SearchFilter {
	var sf store.SearchFilter
	if r := roleChoices[f.role]; r != "" {
		sf.Roles, sf.ShownRoles = []string{r}, true
	}
	sf.Sources, sf.Machines = sourceOrMachine(f.sources[f.source])
	if d := timeChoices[f.span].d; d > 0 {
		sf.Since = now.Add(-d)
	}
	sf.Cwd = f.cwd()
	return sf
}

// list returns the list options for browsing (the role filter does not
// apply to whole sessions).
func (f *filterSet) list(now time.Time) store.ListOptions {
	var o store.ListOptions
	o.Sources, o.Machines = sourceOrMachine(f.sources[f.source])
	if d := timeChoices[f.span].d; d > 0 {
		o.Since = now.Add(-d)
	}
	o.Cwd = f.cwd()
	return o
}

// chips renders the filter line at width w.
func (f *filterSet) chips(st *Styles, keys *KeyMap, w int) string {
	var parts []string
	if r := roleChoices[f.role]; r != "" {
		parts = append(parts, st.Chip.Active.Render("role:"+r))
	}
	if s := f.sources[f.source]; s != "" {
		parts = append(parts, st.Chip.Active.Render(chipName(s)))
	}
	if t := timeChoices[f.span].label; t != "" {
		parts = append(parts, st.Chip.Active.Render("last "+t))
	}
	if f.here {
		parts = append(parts, st.Chip.Active.Render("repo:"+f.projectName()))
	}
	hint := "filters: " + keys.FilterRole.Help().Key + " role · " + keys.FilterSource.Help().Key +
		" source · " + keys.FilterTime.Help().Key + " time"
	if f.project != "" && !f.here {
		hint += " · " + keys.Scope.Help().Key + " this repo"
	}
	if len(parts) > 0 {
		hint = keys.ClearFilters.Help().Key + " clears"
	}
	parts = append(parts, st.Chip.Hint.Render(hint))
	return truncate(strings.Join(parts, " "), w)
}
