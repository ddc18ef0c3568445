package secretstest

import (
	"context"
	"fmt"
	"time"

	"github.com/recall-dev/recall/store"
)

// Cell is one session of the matrix: a form of secret in one placement,
// found by searching Word.
type Cell struct {
	Form      Form
	Placement Placement
	SessionID string
	Word      string
}

// Name is the cell's name in test output: form/placement.
func (c Cell) Name() string { return c.Form.Name + "/" + c.Placement.Name }

// Started is when the first cell's session starts; each next one a minute later.
var Started = time.Date(2026, 7, 1, 9, 0, 0, 0, time.UTC)

// Load writes one session per form and placement into st (claude-code
// sessions in /home/dev/app) and returns them as cells.
func Load(ctx context.Context, st *store.Store, forms []Form, places []Placement) ([]Cell, error) {
	var cells []Cell
	err := st.Write(ctx, func(tx *store.Tx) error {
		cells = cells[:0]
		for fi, f := range forms {
			for pi, p := range places {
				n := len(cells)
				word := fmt.Sprintf("zx%02dk%02dq", fi, pi)
				c := Cell{Form: f, Placement: p, SessionID: fmt.Sprintf("sec-%s-%s", f.Name, p.Name), Word: word}
				fx := p.Make(f, word)
				start := Started.Add(time.Duration(n) * time.Minute)
				if err := tx.UpsertSession(store.Session{ID: c.SessionID, Source: "claude-code", Model: "claude-sonnet-4",
					Title: fx.Title, StartedAt: start, EndedAt: start.Add(30 * time.Second), Cwd: "/home/dev/app"}); err != nil {
					return err
				}
				msgs := make([]store.Message, len(fx.Messages))
				for i, m := range fx.Messages {
					m.SessionID = c.SessionID
					m.Timestamp = start.Add(time.Duration(i) * time.Second)
					msgs[i] = m
				}
				if _, err := tx.InsertMessages(msgs); err != nil {
					return err
				}
				cells = append(cells, c)
			}
		}
		return nil
	})
	return cells, err
}

// Sample keeps perPlacement cells of each placement, their forms taken in
// turn so that every form is kept in some placement when there are enough
// (3 of 7 placements × 12 forms: 21 cells, each form at least once): the
// quick suite's matrix; the heavy one checks every cell.
func Sample(cells []Cell, forms, perPlacement int) []Cell {
	var out []Cell
	next := 0
	byPlace := map[string][]Cell{}
	var order []string
	for _, c := range cells {
		if _, ok := byPlace[c.Placement.Name]; !ok {
			order = append(order, c.Placement.Name)
		}
		byPlace[c.Placement.Name] = append(byPlace[c.Placement.Name], c)
	}
	for _, p := range order {
		for range perPlacement {
			out = append(out, byPlace[p][next%len(byPlace[p])])
			next = (next + 1) % forms
		}
	}
	return out
}
