// Package sqlutil holds the small pieces of SQL text and values that the
// database (store) and the search engine (store/engine/...) both build:
// placeholders, IN and LIKE clauses, a working-directory scope, and the
// REAL Unix seconds Hermes stores times as.
package sqlutil

import (
	"strings"
	"time"
)

// Placeholders is n comma-separated "?".
func Placeholders(n int) string {
	return strings.TrimSuffix(strings.Repeat("?,", n), ",")
}

// InClause appends "expr (?,?,...)" for a non-empty list.
func InClause(where []string, args []any, expr string, vals []string) ([]string, []any) {
	if len(vals) == 0 {
		return where, args
	}
	ph := strings.TrimSuffix(strings.Repeat("?,", len(vals)), ",")
	where = append(where, expr+" ("+ph+")")
	for _, v := range vals {
		args = append(args, v)
	}
	return where, args
}

// EscapeLike escapes LIKE's wildcards (and the escape character, '\') in s.
func EscapeLike(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)
	return r.Replace(s)
}

// CwdClause limits to sessions whose working directory (the SQL
// expression col) is dir or under it (a repository's sessions, whichever
// subdirectory the agent ran in); "" adds nothing. A database without the
// cwd column passes "NULL" and matches nothing.
func CwdClause(where []string, args []any, col, dir string) ([]string, []any) {
	if dir == "" {
		return where, args
	}
	dir = strings.TrimRight(dir, "/")
	if dir == "" {
		return where, args // "/" holds everything
	}
	esc := strings.NewReplacer(`\`, `\\`, "%", `\%`, "_", `\_`).Replace(dir)
	return append(where, "("+col+" = ? OR "+col+` LIKE ? ESCAPE '\')`), append(args, dir, esc+"/%")
}

// ToEpoch is t as Unix seconds, the REAL Hermes stores times as.
func ToEpoch(t time.Time) float64 { return float64(t.UnixNano()) / 1e9 }

// FromEpoch is the time of Unix seconds f; 0 is the zero time.
func FromEpoch(f float64) time.Time {
	if f == 0 {
		return time.Time{}
	}
	sec := int64(f)
	return time.Unix(sec, int64((f-float64(sec))*1e9))
}
