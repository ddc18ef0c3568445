package collect

import (
	"cmp"
	"slices"

	"github.com/recall-dev/recall/store/engine/score"
)

// The session ranking's second phase, as Bleve's and Tantivy's rescorers:
// the best few sessions of the first (score.Plain.Session over every
// match, where a message's role is not known: the session map keeps none)
// scored again with what is read for those sessions only.
//
// Takes: a Ranking and a way to ask the weight of a few message ids' roles
// (one indexed read by rowid). Gives: the Ranking's first
// RescoreSessions sessions in their new order, their rows gathered;
// sessions past them keep their first order, after them.
//
// What it weighs again: a session's best rows, a tool output's value (and
// a user-role row the agent program wrote) times score.ToolOutputMul, the
// assistant's times score.AssistantMul. A long transcript whose
// best-matching messages are a command's output (a stack trace, a grep, a
// diff of the whole module) then counts less than one where the person or
// the agent wrote the words, and, in a session where tools ran, the
// agent's own account of the problem (what it found, what it changed)
// more than a neighbour's issue text that merely shares its vocabulary
// (BENCHMARKS.md: coding-dev's development half).

const (
	// RescoreSessions is how many of the first phase's best sessions are
	// scored again: more than the first page (R@5 and the head a person
	// reads), few enough to cost well under a millisecond to read.
	RescoreSessions = 40
	// RescoreRows is how many of each session's best rows have their role
	// read: every row that can be among its MaxSessionRows best once tool
	// output weighs less, but for sessions with more tool output than that
	// among their best (whose best then only count less).
	RescoreRows = 16
)

// Rescore scores the first RescoreSessions sessions again (see above);
// roles returns the role of those of ids whose role changes their weight
// (fill.RowRoles).
func (r *Ranking) Rescore(roles func(ids []int64) (map[int64]score.RowRole, error)) error {
	k := min(RescoreSessions, r.sorted)
	if k < 2 {
		return nil
	}
	r.gatherTo(r.sorted) // the head's rows, as Next would gather them first
	best := make([][]RowValue, k)
	var ids []int64
	for i, se := range r.sess[:k] {
		rows := slices.Clone(se.Rows)
		// Ties (a corpus of repeated texts has many) go to the newer row,
		// so which RescoreRows rows are weighed does not depend on the sort.
		slices.SortFunc(rows, func(a, b RowValue) int {
			if c := CmpFloatDesc(a.Value, b.Value); c != 0 {
				return c
			}
			return cmp.Compare(b.ID, a.ID)
		})
		best[i] = rows[:min(len(rows), RescoreRows)]
		for _, rv := range best[i] {
			ids = append(ids, rv.ID)
		}
	}
	role, err := roles(ids)
	if err != nil || len(role) == 0 {
		return err
	}
	vals := make([]float64, 0, RescoreRows)
	for i, se := range r.sess[:k] {
		before, after := sessionRows(best[i], vals[:0], nil), sessionRows(best[i], vals[:0], role)
		se.Key.score += after - before
	}
	slices.SortStableFunc(r.sess[:k], func(a, b *Sess) int { return a.Key.cmp(b.Key) })
	for i, se := range r.sess[:k] {
		r.all[i] = se.Rank
	}
	return nil
}

// sessionRows is the best rows' part of a session's score
// (score.Plain.Session: 1, 1/2, ... 1/MaxSessionRows), with role (nil
// for the first phase's) tool output's values weighed by
// score.ToolOutputMul and, when one of rows is tool output, the
// assistant's by score.AssistantMul.
func sessionRows(rows []RowValue, vals []float64, role map[int64]score.RowRole) float64 {
	tools := false
	for _, rv := range rows {
		tools = tools || role[rv.ID] == score.RoleTool
	}
	for _, rv := range rows {
		v := rv.Value
		switch role[rv.ID] {
		case score.RoleTool:
			v *= score.ToolOutputMul
		case score.RoleAssistant:
			if tools {
				v *= score.AssistantMul
			}
		}
		vals = append(vals, v)
	}
	slices.SortFunc(vals, CmpFloatDesc)
	var sc float64
	for i, v := range vals[:min(len(vals), score.MaxSessionRows)] {
		sc += v / float64(i+1)
	}
	return sc
}
