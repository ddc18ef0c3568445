package sessionsearch

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/recall-dev/recall/recall"
)

// summaryGrace is how long past SummaryTimeout a call waits for the
// summarizer to notice its cancelled context before answering without it.
const summaryGrace = 250 * time.Millisecond

// summaries writes one summary per result in the requested mode. Model
// summaries never hold the answer past SummaryTimeout: a session the model
// has not finished gets its offline summary, saying why.
func (t *Tool) summaries(ctx context.Context, req Request, results []recall.Result) []recall.Summary {
	if req.Summary == SummaryModel && t.model != nil {
		return t.modelSummaries(ctx, req, results)
	}
	sums := t.engine(req).Summarize(ctx, req.Query, results, nil)
	if req.Summary == SummaryOffline && t.model != nil {
		// A model is configured but was not asked for: say how to ask.
		for i := range sums {
			sums[i].Text = relabel(sums[i].Text, "Offline summary (extractive)")
			sums[i].Reason = fmt.Sprintf("offline by default; pass summarize: true for a summary by %s", t.model.Model())
		}
	} else {
		for i := range sums {
			sums[i].Reason = "no model configured (set RECALL_LLM_BASE_URL and RECALL_LLM_MODEL for model summaries)"
		}
	}
	return sums
}

func (t *Tool) modelSummaries(ctx context.Context, req Request, results []recall.Result) []recall.Summary {
	query := req.Query
	timeout := t.opts.SummaryTimeout
	mctx, cancel := context.WithCancel(ctx)
	if timeout > 0 {
		mctx, cancel = context.WithTimeout(ctx, timeout)
	}
	defer cancel()
	done := make(chan []recall.Summary, 1)
	go func() { done <- t.model.Summarize(mctx, query, results, nil) }()
	var sums []recall.Summary
	if timeout > 0 {
		select {
		case sums = <-done:
		case <-time.After(timeout + summaryGrace):
			// The summarizer did not stop with its context: answer without it.
		}
	} else {
		sums = <-done
	}
	timedOut := mctx.Err() != nil && ctx.Err() == nil
	if sums != nil && !timedOut {
		return sums
	}
	// Out of time: keep what the model finished, the offline summary for the rest.
	offline := t.engine(req).Summarize(ctx, query, results, nil)
	for i := range offline {
		if i < len(sums) && sums[i].Kind == recall.SummaryModel {
			offline[i] = sums[i]
			continue
		}
		offline[i].Text = relabel(offline[i].Text, "Offline summary (extractive)")
		offline[i].Reason = fmt.Sprintf("%s did not finish within %s; offline summary instead", t.model.Model(), timeout)
	}
	return offline
}

// relabel replaces the extractive summary's heading, which says no model is
// configured, when one is.
func relabel(text, heading string) string {
	if rest, ok := strings.CutPrefix(text, recall.ExtractiveHeading); ok {
		return heading + rest
	}
	return text
}
