//go:build heavy

package sessionsearch

import (
	"os"
	"path/filepath"
	"testing"
)

// datasetDir is a dataset's folder: env names it, else the shared
// datasets beside the checkout (../shared/datasets/name); "" when absent.
func datasetDir(env, name string) string {
	dir := os.Getenv(env)
	if dir == "" {
		dir = filepath.Join("..", "..", "..", "shared", "datasets", name)
	}
	if _, err := os.Stat(dir); err != nil {
		return ""
	}
	return dir
}

// TestLoCoMoFloor: LoCoMo's development half keeps its session recall
// at 1 and 5, for keyword queries and for the questions as asked
// (RECALL_LOCOMO, or ../shared/datasets/locomo-dev; about 2.5 minutes).
func TestLoCoMoFloor(t *testing.T) {
	dir := datasetDir("RECALL_LOCOMO", "locomo-dev")
	if dir == "" {
		t.Skip("no LoCoMo folder: set RECALL_LOCOMO (the folder of locomo-conv-*.jsonl and questions.jsonl)")
	}
	r := locomo(t, dir)
	if t.Failed() || testing.Verbose() {
		r.print()
	}
	checkFloor(t, "LoCoMo keywords", r.ours["keywords"], floor{r1: 73.6, r5: 92.8})
	checkFloor(t, "LoCoMo questions", r.ours["question"], floor{r1: 73.4, r5: 92.9})
}

// TestCodingDevFloor: coding-dev's development half (real coding-agent
// sessions, queries written from memory) keeps its session recall at 1
// and 5 (CODING_DEV, or ../shared/datasets/coding-dev; about a minute).
func TestCodingDevFloor(t *testing.T) {
	dir := datasetDir("CODING_DEV", "coding-dev")
	if dir == "" {
		t.Skip("no coding-dev folder: set CODING_DEV (the folder of data/corpus.jsonl.gz and queries.tsv)")
	}
	r := codingDev(t, dir)
	if t.Failed() || testing.Verbose() {
		r.print()
	}
	checkFloor(t, "coding-dev", &r.ours, floor{r1: 92.5, r5: 100})
}
