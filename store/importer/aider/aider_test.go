package aider

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/recall-dev/recall/store"
	it "github.com/recall-dev/recall/store/importer/internal/importtest"
)

func local(s string) time.Time {
	t, _ := time.ParseInLocation("2006-01-02 15:04:05", s, time.Local)
	return t
}

const banner1 = "Aider v0.86.1\nMain model: anthropic/claude-sonnet-4-20250514 with diff edit format, infinite output\n" +
	"Weak model: anthropic/claude-3-5-haiku-20241022\nGit repo: .git with 42 files\nRepo-map: using 4096 tokens, auto refresh"

const answer1 = "The total sums the items but never subtracts the discounts.\n\ncart.py\n```python\n<<<<<<< SEARCH\n" +
	"        return sum(i.price for i in self.items)\n=======\n        return sum(i.price for i in self.items) - sum(self.discounts)\n>>>>>>> REPLACE\n```"

func TestImport(t *testing.T) {
	dir := it.CopyTree(t, it.Fixtures(t, "aider"))
	st := it.Open(t)
	rep := it.Run(t, st, &Source{}, dir)
	if rep.Files != 1 || rep.Sessions != 3 || rep.Messages != 11 || rep.Malformed != 0 {
		t.Errorf("report = %+v", rep)
	}
	d := it.Dump(t, st)
	if len(d) != 3 {
		t.Fatalf("sessions %v", it.IDs(d))
	}
	ids := it.IDs(d)
	cwd := filepath.Join(dir, "shop")
	for i, tc := range []struct {
		want store.Session
		msgs []it.Msg
	}{
		{store.Session{Source: "aider", Model: "anthropic/claude-sonnet-4-20250514", StartedAt: local("2025-06-01 09:00:00"), Cwd: cwd,
			InputTokens: 4200, OutputTokens: 312, EstimatedCostUSD: 0.02, MessageCount: 6}, []it.Msg{
			{Role: "user", Content: banner1, Kind: "agent"},
			{Role: "user", Content: "/add cart.py", Kind: "command"},
			{Role: "user", Content: "Added cart.py to the chat", Kind: "agent"},
			{Role: "user", Content: "the total ignores discounts. here is the test that fails:\n```python\ndef test_total():\n\n    assert Cart([Item(10)], discounts=[2]).total() == 8\n```"},
			{Role: "assistant", Content: answer1},
			{Role: "user", Content: "Tokens: 4.2k sent, 312 received. Cost: $0.02 message, $0.02 session.\nApplied edit to cart.py\nCommit 1a2b3c4 fix: Subtract discounts in Cart.total", Kind: "agent"},
		}},
		{store.Session{Source: "aider", Model: "gpt-4o", StartedAt: local("2025-06-02 14:30:00"), Cwd: cwd,
			InputTokens: 1100, OutputTokens: 45, EstimatedCostUSD: 0.0032, MessageCount: 4}, []it.Msg{
			{Role: "user", Content: "Aider v0.86.1\nModel: gpt-4o with diff edit format", Kind: "agent"},
			{Role: "user", Content: "why are there two READMEs?"},
			{Role: "assistant", Content: "One is the package README (shipped to PyPI), the other documents the repo."},
			{Role: "user", Content: "Tokens: 1.1k sent, 45 received. Cost: $0.0032 message, $0.0032 session.", Kind: "agent"},
		}},
		{store.Session{Source: "aider", Model: "gpt-4o", StartedAt: local("2025-06-03 08:00:00"), Cwd: cwd, MessageCount: 1}, []it.Msg{
			{Role: "user", Content: "Aider v0.86.1\nMain model: gpt-4o with diff edit format", Kind: "agent"},
		}},
	} {
		tc.want.ID = ids[i]
		if !strings.Contains(ids[i], tc.want.StartedAt.Format("20060102T150405")) {
			t.Errorf("session id %s does not name its start", ids[i])
		}
		it.SameSession(t, d[tc.want.ID].Session, tc.want)
		it.SameMsgs(t, tc.want.ID, d[tc.want.ID].Msgs, tc.msgs)
	}

	// Aider appends a new exchange: only it is read, and the open output
	// block growing makes a clean re-read, never a doubled row.
	hist := filepath.Join(dir, "shop", HistoryFile)
	it.Append(t, hist, "\n#### /exit  \n")
	rep = it.Run(t, st, &Source{}, dir)
	if rep.Messages != 1 {
		t.Errorf("after one more prompt: %+v", rep)
	}
	it.Append(t, hist, "\n> Tokens: 10 sent, 2 received.  \n> second line  \n")
	it.Run(t, st, &Source{}, dir)
	it.Append(t, hist, "> third line  \n")
	it.Run(t, st, &Source{}, dir)
	d = it.Dump(t, st)
	last := d[ids[2]].Msgs
	if it.Count(d) != 13 || last[len(last)-1].Content != "Tokens: 10 sent, 2 received.\nsecond line\nthird line" {
		t.Errorf("%d messages, last %q", it.Count(d), last[len(last)-1].Content)
	}
	if _, err := os.Stat(hist); err != nil {
		t.Fatal(err)
	}
}
