package cline

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer"
)

// TaskMeta is what an extension of the Cline family keeps about a task
// beside its api_conversation_history.json (Roo Code: the task's
// history_item.json). Zero fields are unknown.
type TaskMeta struct {
	ID string
	// Parent is the task that started this one as a sub-task: the session
	// becomes its child (_delegate_from) and its first prompt, written by
	// the parent, is of display kind agent.
	Parent         string
	Title, Cwd     string
	Model          string
	Started, Ended time.Time
	// Token totals and cost, used when the messages carry no metrics.
	InputTokens, OutputTokens, CacheReadTokens, CacheWriteTokens int64
	Cost                                                         float64
}

// ImportTask brings one task-format history (tasks/<id>/api_conversation_history.json,
// a JSON list of Anthropic-shaped messages rewritten whole) up to date as a
// session of source, read the way the cline source reads Cline's own tasks;
// describe says what is known about the task outside the file (read again
// whenever the file changed).
func ImportTask(ctx context.Context, st *store.Store, source, file string, describe func(file string) TaskMeta) (importer.Report, error) {
	open := func() (io.ReadCloser, error) {
		raw, err := os.ReadFile(file)
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", file, err)
		}
		tm := describe(file)
		m := meta{Source: source, ID: tm.ID, Parent: tm.Parent, Agent: tm.Parent != "", Task: true, Title: tm.Title, Cwd: tm.Cwd, Model: tm.Model,
			Started: timeText(tm.Started), Ended: timeText(tm.Ended),
			In: tm.InputTokens, Out: tm.OutputTokens, CacheRead: tm.CacheReadTokens, CacheWrite: tm.CacheWriteTokens, Cost: tm.Cost}
		conv, err := convertTask(file, raw, m)
		if err != nil {
			return nil, err
		}
		return io.NopCloser(bytes.NewReader(conv)), nil
	}
	return importer.ImportWhole(ctx, st, source, file, open, func() importer.LineParser { return newParser(file) })
}

func timeText(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339Nano)
}
