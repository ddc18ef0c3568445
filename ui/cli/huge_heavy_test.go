//go:build heavy

package cli

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestHugeRecordsCostOnlyThemselves: a Claude Code project holding a
// 200 MB record between two ordinary ones, a transcript whose last line is
// 200 MB with no newline yet, and an ordinary transcript. The import keeps
// every ordinary record, reports each huge one in one problem line with
// file:line, and its peak memory stays bounded (before: 1.14 GB RSS, and
// the whole first file was lost to "too large").
func TestHugeRecordsCostOnlyThemselves(t *testing.T) {
	bin := buildRecall(t)
	dir := t.TempDir()
	proj := filepath.Join(dir, "projects", "-work-app")
	if err := os.MkdirAll(proj, 0o755); err != nil {
		t.Fatal(err)
	}
	rec := func(session, uuid, text string) string {
		b, _ := json.Marshal(map[string]any{"type": "user", "uuid": uuid, "sessionId": session, "timestamp": "2026-11-01T10:00:00Z",
			"cwd": "/work/app", "message": map[string]any{"role": "user", "content": text}})
		return string(b)
	}
	huge := func(w *bufio.Writer) {
		w.WriteString(`{"type":"user","uuid":"big","sessionId":"s","message":{"role":"user","content":"`)
		chunk := strings.Repeat("x", 1<<20)
		for range 200 {
			w.WriteString(chunk)
		}
		w.WriteString(`"}}`)
	}
	write := func(name string, body func(w *bufio.Writer)) {
		f, err := os.Create(filepath.Join(proj, name))
		if err != nil {
			t.Fatal(err)
		}
		w := bufio.NewWriter(f)
		body(w)
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
	write("s1.jsonl", func(w *bufio.Writer) {
		w.WriteString(rec("s1", "a", "before the huge record") + "\n")
		huge(w)
		w.WriteString("\n" + rec("s1", "c", "after the huge record") + "\n")
	})
	write("s2.jsonl", func(w *bufio.Writer) {
		w.WriteString(rec("s2", "a", "a transcript still being written") + "\n")
		huge(w)
	})
	write("s3.jsonl", func(w *bufio.Writer) { w.WriteString(rec("s3", "a", "an ordinary transcript") + "\n") })

	db := filepath.Join(dir, "state.db")
	cmd := exec.Command(bin, "--db", db, "import", "claude", filepath.Join(dir, "projects"))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("import: %v\n%s", err, out)
	}
	for _, want := range []string{
		"s1.jsonl:2: record is 200.0 MB, more than the 64.0 MB recall stores: skipped",
		"s2.jsonl:2: the last line is 200.0 MB with no newline yet",
		"3 sessions, 4 messages imported",
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("import output lacks %q:\n%s", want, out)
		}
	}
	if n := strings.Count(string(out), "200.0 MB"); n != 2 {
		t.Errorf("%d problem lines about the huge records, want 2:\n%s", n, out)
	}
	peakMB := cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss >> 10
	t.Logf("peak RSS of the import: %d MB", peakMB)
	if peakMB > 400 {
		t.Errorf("peak RSS %d MB for 200 MB records: the line reader is not bounded", peakMB)
	}
	found, err := exec.Command(bin, "--db", db, "messages", "--json", "after the huge record").Output()
	if err != nil || !strings.Contains(string(found), `"session_id": "s1"`) {
		t.Errorf("the record after the huge one is not searchable: %v\n%s", err, found)
	}
}
