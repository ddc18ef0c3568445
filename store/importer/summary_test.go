package importer

import "testing"

// TestSummary: counts read as English (1 file, 2 files), the ones that are
// 0 are left out, and skipped records are grouped by why, the most first.
func TestSummary(t *testing.T) {
	for _, c := range []struct {
		rep           Report
		summary, skip string
	}{
		{Report{Files: 1, Sessions: 1, Messages: 1}, "1 file, 1 session, 1 message imported", ""},
		{Report{Files: 6, Unchanged: 2, Failed: 1, Deferred: 1, Sessions: 6, Messages: 38, Skipped: 1, Malformed: 2},
			"10 files (2 unchanged, 1 failed, 1 passed over until the next run), 6 sessions, 38 messages imported, 1 record skipped, 2 malformed", "1 other"},
		{Report{Skipped: 178, SkipReasons: map[string]int{"progress": 96, "file-history-snapshot": 40, "system": 22, "queue-operation": 12, "empty messages": 8}},
			"0 files, 0 sessions, 0 messages imported, 178 records skipped", "96 progress, 40 file-history-snapshot, 22 system, 12 queue-operation, 8 empty messages"},
		{Report{Skipped: 9, SkipReasons: map[string]int{"a": 1, "b": 1, "c": 1, "d": 1, "e": 1, "f": 1, "g": 1, "h": 1}},
			"0 files, 0 sessions, 0 messages imported, 9 records skipped", "1 a, 1 b, 1 c, 1 d, 1 e, 1 f and 3 more"},
	} {
		if got := c.rep.Summary(); got != c.summary {
			t.Errorf("Summary = %q, want %q", got, c.summary)
		}
		if got := c.rep.SkipSummary(); got != c.skip {
			t.Errorf("SkipSummary = %q, want %q", got, c.skip)
		}
	}
	// Reasons add up across reports, and Tally.Skip names them.
	var a, b Report
	NewTally(&a, "f").Skip("progress")
	NewTally(&b, "f").Skip("progress")
	NewTally(&b, "f").Skip()
	a.Add(b)
	if a.Skipped != 3 || a.SkipReasons["progress"] != 2 || a.SkipSummary() != "2 progress, 1 other" {
		t.Errorf("added: %+v, %q", a, a.SkipSummary())
	}
}
