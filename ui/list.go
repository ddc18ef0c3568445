package ui

import (
	"fmt"
	"strings"
	"time"

	"github.com/recall-dev/recall/ui/termtext"
)

// itemHeight is the lines one session takes in the list: title and time,
// source/model and counts, snippet or preview.
const itemHeight = 3

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
	emptyMsg string // shown when there are no items
	now      func() time.Time
	styles   *Styles

	cache string
	dirty bool
}

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

// Page is how many rows fit.
func (l *listView) Page() int { return max(1, l.height/itemHeight) }

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

// ItemAt returns the row index at line y of the list box, or -1.
func (l *listView) ItemAt(y int) int {
	i := l.offset + y/itemHeight
	if y < 0 || i >= len(l.items) {
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

// View renders the list as exactly height lines of width cells.
func (l *listView) View() string {
	if !l.dirty && l.cache != "" {
		return l.cache
	}
	var b strings.Builder
	if len(l.items) == 0 {
		b.WriteString(l.styles.List.Empty.Render(l.emptyMsg))
	}
	now := time.Now()
	if l.now != nil {
		now = l.now()
	}
	for i := l.offset; i < len(l.items) && i < l.offset+l.Page(); i++ {
		if i > l.offset {
			b.WriteByte('\n')
		}
		b.WriteString(l.renderItem(l.items[i], i == l.selected, now))
	}
	l.cache = strings.Join(fitLines(b.String(), l.width, l.height), "\n")
	l.dirty = false
	return l.cache
}

// renderItem renders one row as itemHeight lines.
func (l *listView) renderItem(it Item, selected bool, now time.Time) string {
	st := l.styles
	bar := "  "
	title := st.List.Title
	if selected {
		title = st.List.SelectedTitle
		if l.focused {
			bar = st.List.Bar.Render("┃ ")
		} else {
			bar = st.List.Bar.Render("│ ")
		}
	}
	w := l.width - 2
	when := termtext.RelTime(now, it.When)
	name := termtext.OneLine(termtext.Sanitize(it.Title))
	if name == "" {
		name = termtext.OneLine(termtext.Sanitize(it.Preview))
	}
	if name == "" {
		name = "(untitled)"
	}
	whenW := len(when) + 1
	line1 := fit(title.Render(truncate(name, max(1, w-whenW))), max(1, w-whenW)) + " " + st.List.When.Render(when)

	meta := []string{termtext.Sanitize(it.Source)}
	if it.Model != "" {
		meta = append(meta, termtext.Sanitize(it.Model))
	}
	switch {
	case it.Hits == 1:
		meta = append(meta, "1 hit")
	case it.Hits > 1:
		meta = append(meta, fmt.Sprintf("%d hits", it.Hits))
	case it.Messages > 0:
		meta = append(meta, fmt.Sprintf("%d msgs", it.Messages))
	}
	line2 := st.List.Meta.Render(truncate(termtext.OneLine(strings.Join(meta, " · ")), w))

	var line3 string
	if it.Snippet != "" {
		line3 = styleSnippet(it.Snippet, w, st.List.Snippet, st.List.Hit)
	} else {
		line3 = st.List.Preview.Render(truncate(termtext.OneLine(termtext.Sanitize(it.Preview)), w))
	}
	pad := bar
	return bar + line1 + "\n" + pad + line2 + "\n" + pad + line3
}
