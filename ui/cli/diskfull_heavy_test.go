//go:build heavy

package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestDiskFullDuringImport runs `recall import jsonl` of 20,000 messages
// into a database on a tmpfs too small for its trigram index (the store's
// TestDeferredTrigramDiskFull is the same without root): the import says
// the rows are imported and their substring index is pending, exit 1; a
// substring search finds the rows all the same; stats says what is
// pending. It needs to mount a tmpfs (root); elsewhere it is skipped.
func TestDiskFullDuringImport(t *testing.T) {
	bin := buildRecall(t)
	dir := t.TempDir()
	src := filepath.Join(dir, "20k.jsonl")
	var b strings.Builder
	for i := range 20_000 {
		fmt.Fprintf(&b, `{"session_id":"s%d","source":"toolA","role":"user","content":"message msg%d about the quick brown fox %s","timestamp":"2026-01-01T00:%02d:%02dZ"}`+"\n",
			i/100, i, strings.Repeat("padding ", 20), (i/60)%60, i%60)
	}
	if err := os.WriteFile(src, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	mnt := filepath.Join(dir, "full")
	os.Mkdir(mnt, 0o755)
	// The smallest tmpfs the rows fit in but not their trigram index: its
	// size is found, not guessed, as SQLite's page use varies a little.
	for size := 16; size <= 48; size += 2 {
		if err := syscall.Mount("tmpfs", mnt, "tmpfs", 0, fmt.Sprintf("size=%dm", size)); err != nil {
			t.Skipf("cannot mount a tmpfs (%v): not root", err)
		}
		db := filepath.Join(mnt, "state.db")
		cmd := exec.Command(bin, "--db", db, "import", "jsonl", src)
		var stdout, stderr strings.Builder
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		if err == nil || !strings.Contains(stdout.String(), "20000 messages imported") {
			syscall.Unmount(mnt, 0)
			continue // the rows did not fit, or the index did too
		}
		defer syscall.Unmount(mnt, 0)
		t.Logf("tmpfs of %d MB:\n%s%s", size, stdout.String(), stderr.String())
		if want := "the substring (trigram) index of 20,000 messages is pending, searches find them by a scan until it is done"; !strings.Contains(stderr.String(), want) ||
			!strings.Contains(stderr.String(), "disk full writing") {
			t.Errorf("stderr lacks %q and the disk full:\n%s", want, stderr.String())
		}
		out, err := exec.Command(bin, "--db", db, "messages", "--json", "--limit", "100", "sg1999").Output()
		var hits []json.RawMessage
		if err != nil || json.Unmarshal(out, &hits) != nil || len(hits) != 11 {
			t.Errorf("messages sg1999: %d hits, %v\n%s", len(hits), err, out)
		}
		out, err = exec.Command(bin, "--db", db, "stats").Output()
		if err != nil || !strings.Contains(string(out), "pending         20,000 messages not in the substring (trigram) index yet") {
			t.Errorf("stats: %v\n%s", err, out)
		}
		return
	}
	t.Fatal("no tmpfs size between 16 and 48 MB held the rows but not their trigram index")
}
