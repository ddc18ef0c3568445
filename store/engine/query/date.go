package query

import (
	"strconv"
	"strings"
	"time"
)

// Dates in a plain query.
//
// "What did we change in May 2023", "the docker fix last week": the date
// is rarely in the message text (it is the session's date), so the words
// that name it are taken out of the words to match and become a range the
// ranking prefers (store/engine/pipeline): sessions of that time come first,
// the others follow.

// DateRange is a half-open time range [from, to) named in a query.
type DateRange struct {
	From, To time.Time
	Text     string // the words that named it, as typed: "May 2023", "last week"
}

func (d DateRange) Zero() bool { return d.From.IsZero() }

// Contains reports whether t is in the range.
func (d DateRange) Contains(t time.Time) bool {
	return !d.Zero() && !t.Before(d.From) && t.Before(d.To)
}

var monthNames = map[string]time.Month{
	"january": 1, "jan": 1, "february": 2, "feb": 2, "march": 3, "mar": 3, "april": 4, "apr": 4, "may": 5,
	"june": 6, "jun": 6, "july": 7, "jul": 7, "august": 8, "aug": 8, "september": 9, "sep": 9, "sept": 9,
	"october": 10, "oct": 10, "november": 11, "nov": 11, "december": 12, "dec": 12,
}

// findDate finds the first date expression among words (relative to now,
// in now's location) and returns it with the remaining words. Recognised:
// today, yesterday, last/this week|month|year, a month name (capitalised,
// or next to a day or year: "may" alone is a verb), with an optional day
// and year ("7 May 2023", "May 7th, 2023", "May 2023", "in May"), and a
// year alone (1990-2099).
func findDate(words []string, now time.Time) (DateRange, []string) {
	if now.IsZero() {
		now = time.Now()
	}
	loc := now.Location()
	today := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, loc)
	lower := make([]string, len(words))
	for i, w := range words {
		lower[i] = strings.ToLower(w)
	}
	cut := func(i, j int, d DateRange) (DateRange, []string) {
		d.Text = strings.Join(words[i:j], " ")
		rest := append(append([]string{}, words[:i]...), words[j:]...)
		return d, rest
	}
	for i, w := range lower {
		switch w {
		case "today":
			return cut(i, i+1, DateRange{From: today, To: today.AddDate(0, 0, 1)})
		case "yesterday":
			return cut(i, i+1, DateRange{From: today.AddDate(0, 0, -1), To: today})
		case "last", "this", "past":
			if i+1 >= len(lower) {
				continue
			}
			back := 0
			if w != "this" {
				back = 1
			}
			switch lower[i+1] {
			case "week":
				// a week back from today, and the days of this week: "last week" is loose speech
				if back == 1 {
					return cut(i, i+2, DateRange{From: today.AddDate(0, 0, -14), To: today.AddDate(0, 0, 1)})
				}
				return cut(i, i+2, DateRange{From: today.AddDate(0, 0, -7), To: today.AddDate(0, 0, 1)})
			case "month":
				first := time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, loc).AddDate(0, -back, 0)
				return cut(i, i+2, DateRange{From: first, To: first.AddDate(0, 1, 0)})
			case "year":
				first := time.Date(now.Year()-back, 1, 1, 0, 0, 0, 0, loc)
				return cut(i, i+2, DateRange{From: first, To: first.AddDate(1, 0, 0)})
			}
		}
		if m, ok := monthNames[w]; ok {
			day, lastDay, year := 0, 0, 0
			j := i + 1
			for j < len(lower) && j < i+3 { // "August 11", "August 11 15" (11-15)
				d := dayNumber(lower[j])
				if d == 0 {
					break
				}
				if day == 0 {
					day = d
				}
				lastDay, j = d, j+1
			}
			if j < len(lower) {
				if y := yearNumber(lower[j]); y > 0 {
					year, j = y, j+1
				}
			}
			start := i
			if day == 0 && i > 0 {
				if d := dayNumber(lower[i-1]); d > 0 {
					day, lastDay, start = d, d, i-1
				}
			}
			capital := words[i] != w && len(w) >= 3
			if !capital && day == 0 && year == 0 {
				continue // "may", "march" as verbs
			}
			if w == "may" && !capital && year == 0 {
				continue
			}
			if year == 0 {
				year = now.Year()
				if time.Date(year, m, max(day, 1), 0, 0, 0, 0, loc).After(now) {
					year-- // "in May" asked in April: last May
				}
			}
			if day > 0 {
				// A day is when something happened; the session that tells
				// of it is often dated a few days later: from the day
				// before to a week after.
				from := time.Date(year, m, day, 0, 0, 0, 0, loc)
				to := time.Date(year, m, max(day, lastDay), 0, 0, 0, 0, loc)
				return cut(start, j, DateRange{From: from.AddDate(0, 0, -1), To: to.AddDate(0, 0, dayAfter)})
			}
			from := time.Date(year, m, 1, 0, 0, 0, 0, loc)
			return cut(start, j, DateRange{From: from, To: from.AddDate(0, 1, 0)})
		}
		if y := yearNumber(w); y > 0 {
			from := time.Date(y, 1, 1, 0, 0, 0, 0, loc)
			return cut(i, i+1, DateRange{From: from, To: from.AddDate(1, 0, 0)})
		}
	}
	return DateRange{}, words
}

// dayAfter is how many days after a named day still count as its time.
const dayAfter = 7

// dayNumber reads 1-31, also as 1st/2nd/3rd/7th; 0 otherwise.
func dayNumber(w string) int {
	for _, suf := range []string{"st", "nd", "rd", "th"} {
		w = strings.TrimSuffix(w, suf)
	}
	if len(w) == 0 || len(w) > 2 {
		return 0
	}
	n, err := strconv.Atoi(w)
	if err != nil || n < 1 || n > 31 {
		return 0
	}
	return n
}

// yearNumber reads 1990-2099; 0 otherwise.
func yearNumber(w string) int {
	if len(w) != 4 {
		return 0
	}
	n, err := strconv.Atoi(w)
	if err != nil || n < 1990 || n > 2099 {
		return 0
	}
	return n
}
