package ui

import (
	"fmt"
	"strings"
	"time"

	"github.com/recall-dev/recall/recall"
	"github.com/recall-dev/recall/ui/termtext"
)

// itemHeight is the lines one session takes in the list: title and time,
// source/model and counts, snippet or preview. A compact row is one line.
const itemHeight = 3

// listDensity is how many lines a row takes.
type listDensity uint8

const (
	densityAuto    listDensity = iota // full rows, compact when fewer than minFullRows fit
	densityFull                       // always three lines a row
	densityCompact                    // always one line a row (fzf-like)
)

// minFullRows is the fewest full rows worth showing: below it (80x24
// stacked leaves room for two) the list goes compact, one session a line.
const minFullRows = 3

// listView is the session list: a plain struct with imperative methods, no
// Update of its own. Its rendering is cached until items, selection or size
// change, so View stays cheap while tokens stream into the summary panel.
type listView struct {
	items    []Item
	selected int
	offset   int // first visible item
	width    int
	height   int
	focused  bool
	density  listDensity
	emptyMsg string // shown when there are no items
	now      func() time.Time
	styles   *Styles

	cache string
	dirty bool
	// gone are the sessions whose source files the agent deleted (marked
	// "file deleted": recall keeps them).
	gone map[string]bool
	// hosts name the machine of each session synced from another one
	// (shown as source@host).
	hosts map[string]string
}

// goneMark is the marker of a session whose source file is gone.
const goneMark = "file deleted"

// SetItems replaces the rows, keeping the selection on the same session when
// it is still there.
func (l *listView) SetItems(items []Item) {
	keep := l.SelectedID()
	l.items = items
	l.selected, l.offset = 0, 0
	if keep != "" {
		for i, it := range items {
			if it.SessionID == keep {
				l.selected = i
				break
			}
		}
	}
	l.clamp()
	l.dirty = true
}

// Selected returns the selected row.
func (l *listView) Selected() (Item, bool) {
	if l.selected < 0 || l.selected >= len(l.items) {
		return Item{}, false
	}
	return l.items[l.selected], true
}

// SelectedID returns the selected session id, or "".
func (l *listView) SelectedID() string {
	it, _ := l.Selected()
	return it.SessionID
}

// Move moves the selection by delta rows and reports whether it changed.
func (l *listView) Move(delta int) bool {
	old := l.selected
	l.selected += delta
	l.clamp()
	l.dirty = true
	return old != l.selected
}

// Select moves the selection to row i and reports whether it changed.
func (l *listView) Select(i int) bool { return l.Move(i - l.selected) }

// Page is how many rows fit under the list's header line.
func (l *listView) Page() int { return max(1, (l.height-1)/l.rowHeight()) }

// rowHeight is the lines a row takes at the current size and density.
func (l *listView) rowHeight() int {
	switch {
	case l.density == densityCompact:
		return 1
	case l.density == densityFull:
		return itemHeight
	case (l.height-1)/itemHeight < minFullRows:
		return 1
	}
	return itemHeight
}

// SetDensity chooses full, compact or automatic rows.
func (l *listView) SetDensity(d listDensity) {
	if d != l.density {
		l.density = d
		l.clamp()
		l.dirty = true
	}
}

// SetSize sets the box the list draws in.
func (l *listView) SetSize(w, h int) {
	if w != l.width || h != l.height {
		l.width, l.height = w, h
		l.clamp()
		l.dirty = true
	}
}

// SetFocused marks whether the list has focus (its selection bar shows so).
func (l *listView) SetFocused(f bool) {
	if f != l.focused {
		l.focused = f
		l.dirty = true
	}
}

// Scroll moves the window by delta rows without moving past the ends; the
// selection follows when it would leave the window (mouse wheel).
func (l *listView) Scroll(delta int) bool {
	return l.Move(delta)
}

// ItemAt returns the row index at line y of the list box (its header is
// line 0), or -1.
func (l *listView) ItemAt(y int) int {
	if y < 1 {
		return -1
	}
	i := l.offset + (y-1)/l.rowHeight()
	if i >= len(l.items) || i >= l.offset+l.Page() {
		return -1
	}
	return i
}

func (l *listView) clamp() {
	if l.selected >= len(l.items) {
		l.selected = len(l.items) - 1
	}
	if l.selected < 0 {
		l.selected = 0
	}
	page := l.Page()
	if l.selected < l.offset {
		l.offset = l.selected
	}
	if l.selected >= l.offset+page {
		l.offset = l.selected - page + 1
	}
	// A list that grew (a resize, fewer results) shows as many rows as
	// fit: never rows scrolled out above while there is room below.
	l.offset = min(l.offset, max(0, len(l.items)-page))
	if l.offset < 0 {
		l.offset = 0
	}
}

// View renders the list as exactly height lines of width cells: a header
// line (highlighted while the list has focus, with the position "3/27"),
// then the rows.
func (l *listView) View() string {
	if !l.dirty && l.cache != "" {
		return l.cache
	}
	var b strings.Builder
	b.WriteString(l.header())
	b.WriteByte('\n')
	if len(l.items) == 0 {
		for _, line := range strings.Split(l.emptyMsg, "\n") {
			b.WriteString(l.styles.List.Empty.Render(" " + line))
			b.WriteByte('\n')
		}
	}
	now := time.Now()
	if l.now != nil {
		now = l.now()
	}
	compact := l.rowHeight() == 1
	for i := l.offset; i < len(l.items) && i < l.offset+l.Page(); i++ {
		if i > l.offset {
			b.WriteByte('\n')
		}
		if compact {
			b.WriteString(l.renderCompact(l.items[i], i == l.selected, now))
		} else {
			b.WriteString(l.renderItem(l.items[i], i == l.selected, now))
		}
	}
	l.cache = strings.Join(fitLines(b.String(), l.width, l.height), "\n")
	l.dirty = false
	return l.cache
}

// header is the list's title line: "Sessions" and the selection's position.
func (l *listView) header() string {
	st := l.styles.List.Header
	if l.focused {
		st = l.styles.List.FocusedHeader
	}
	pos := ""
	if n := len(l.items); n > 0 {
		pos = fmt.Sprintf("%d/%d ", l.selected+1, n)
	}
	room := max(0, l.width-termtext.Width(pos))
	return st.Render(termtext.Fit(" Sessions", room) + pos)
}

// bar is the selection mark at the start of a row's lines.
func (l *listView) bar(selected bool) string {
	switch {
	case !selected:
		return "  "
	case l.focused:
		return l.styles.List.Bar.Render("┃ ")
	}
	return l.styles.List.Bar.Render("│ ")
}

// title is a row's name: its title, else its first message, else "(untitled)".
func rowTitle(it Item) string {
	name := termtext.OneLine(termtext.Sanitize(it.Title))
	if name == "" {
		name = termtext.OneLine(termtext.Sanitize(it.Preview))
	}
	if name == "" {
		name = "(untitled)"
	}
	return name
}

// count is a row's "4 hits" (search) or "12 msgs" (browse).
func rowCount(it Item) string {
	switch {
	case it.Hits == 1:
		return "1 hit"
	case it.Hits > 1:
		return fmt.Sprintf("%d hits", it.Hits)
	case it.Messages == 1:
		return "1 msg"
	case it.Messages > 1:
		return fmt.Sprintf("%d msgs", it.Messages)
	}
	return ""
}

// renderCompact renders one row on one line: title, count and time.
func (l *listView) renderCompact(it Item, selected bool, now time.Time) string {
	st := l.styles
	title := st.List.Title
	if selected {
		title = st.List.SelectedTitle
	}
	w := l.width - 2
	right := termtext.RelTime(now, it.When)
	if c := rowCount(it); c != "" {
		right = c + " · " + right
	}
	if l.gone[it.SessionID] {
		right = goneMark + " · " + right
	}
	right = " " + right
	rw := termtext.Width(right)
	if rw > w/2 {
		right, rw = "", 0
	}
	return l.bar(selected) + termtext.Fit(title.Render(termtext.Truncate(rowTitle(it), w-rw)), w-rw) + st.List.When.Render(right)
}

// renderItem renders one row as itemHeight lines.
func (l *listView) renderItem(it Item, selected bool, now time.Time) string {
	st := l.styles
	bar := l.bar(selected)
	title := st.List.Title
	if selected {
		title = st.List.SelectedTitle
	}
	w := l.width - 2
	when := termtext.RelTime(now, it.When)
	whenW := termtext.Width(when) + 1
	line1 := termtext.Fit(title.Render(termtext.Truncate(rowTitle(it), max(1, w-whenW))), max(1, w-whenW)) + " " + st.List.When.Render(when)

	src := it.Source
	if h := l.hosts[it.SessionID]; h != "" {
		src += "@" + h // synced from another machine
	}
	meta := []string{termtext.OneLine(termtext.Sanitize(src))}
	if it.Model != "" {
		meta = append(meta, termtext.OneLine(termtext.Sanitize(it.Model)))
	}
	if c := rowCount(it); c != "" {
		meta = append(meta, c)
	}
	if m := recall.MatchedText(it.Matched, it.Words); m != "" {
		meta = append(meta, m)
	}
	if l.gone[it.SessionID] {
		meta = append(meta, goneMark)
	}
	line2 := st.List.Meta.Render(termtext.Truncate(strings.Join(meta, " · "), w))

	var line3 string
	if it.Snippet != "" {
		line3 = styleSnippet(it.Snippet, w, st.List.Snippet, st.Hit)
	} else {
		line3 = st.List.Preview.Render(termtext.Truncate(termtext.OneLine(termtext.Sanitize(it.Preview)), w))
	}
	return bar + line1 + "\n" + bar + line2 + "\n" + bar + line3
}
