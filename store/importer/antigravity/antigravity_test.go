package antigravity

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/recall-dev/recall/store"
	it "github.com/recall-dev/recall/store/importer/internal/importtest"
)

const (
	cliID   = "d1e2f3a4-5b6c-4d7e-8f90-a1b2c3d4e5f6"
	childID = "e7f8a9b0-c1d2-4e3f-a4b5-c6d7e8f9a0b1"
	ideID   = "f0e1d2c3-b4a5-4968-8776-655443322110"
)

func logOf(root, app, id, name string) string {
	return filepath.Join(root, app, "brain", id, ".system_generated", "logs", name)
}

// cliMsgs is what the agy conversation's full log imports as.
var cliMsgs = []it.Msg{
	{Role: "user", Content: "why does the nightly backup job exit with status 12?"},
	{Role: "assistant", Reasoning: "Exit 12 is not an rsync code; read the unit's log to see what failed first.",
		ToolCalls: it.Calls("s3-0", "run_command", `{"CommandLine":"journalctl -u backup.service -n 20","Cwd":"/srv/backup","WaitMsBeforeAsync":2000}`)},
	{Role: "tool", Content: "\t\t\t\tThe command exited with code 0.\n\t\t\t\tOutput:\n\t\t\t\trsync: write failed on \"/mnt/nas/db.dump\": No space left on device (28)\nbackup.sh: exit 12",
		ToolCallID: "s3-0", ToolName: "run_command"},
	{Role: "assistant", ToolCalls: it.Calls("s5-0", "view_file", `{"AbsolutePath":"/srv/backup/backup.sh"}`)},
	{Role: "tool", Content: "File Path: `file:///srv/backup/backup.sh`\nTotal Lines: 3\nTotal Bytes: 58\nShowing lines 1 to 3\nThe following code has been modified to include a line number before every line, in the format: <line_number>: <original_line>. Please note that any changes targeting the original code should remove the line number, colon, and leading space.\n1: #!/bin/sh\n2: rsync -a /var/lib/db/ /mnt/nas/ || exit 12\n3: \nThe above content shows the entire, complete file contents of the requested file.",
		ToolCallID: "s5-0", ToolName: "view_file"},
	{Role: "assistant", Content: "The NAS is full: rsync fails with ENOSPC, and backup.sh turns any rsync failure into exit 12. Free space on /mnt/nas or prune the old dumps."},
	{Role: "user", Content: "prune dumps older than 30 days, and have a subagent check the other cron jobs for the same pattern"},
	{Role: "assistant", ToolCalls: it.CallsOf(
		it.Call{ID: "s9-0", Name: "run_command", Args: `{"CommandLine":"find /mnt/nas -name '*.dump' -mtime +30 -delete","Cwd":"/srv/backup"}`},
		it.Call{ID: "s9-1", Name: "invoke_subagent", Args: `{"Subagents":"[{\"Role\":\"Cron auditor\",\"TypeName\":\"research\",\"Prompt\":\"check /etc/cron.d jobs for scripts that hide rsync errors behind one exit code\"}]"}`})},
	{Role: "tool", Content: "\t\t\t\tThe command exited with code 1.\n\t\t\t\tOutput:\n\t\t\t\tfind: '/mnt/nas/locked': Permission denied",
		ToolCallID: "s9-0", ToolName: "run_command", Finish: "error"},
	{Role: "tool", Content: "Created the following subagents:\n{\n  \"conversationId\": \"" + childID + "\"\n}", ToolCallID: "s9-1", ToolName: "invoke_subagent"},
	{Role: "assistant", Content: "The model API is currently overloaded; the request will be retried.", Finish: "error"},
	{Role: "user", Content: "Summary of the conversation so far: the nightly backup fails because /mnt/nas is full; dumps older than 30 days were pruned except under /mnt/nas/locked; a subagent audits the other cron jobs.", Kind: store.DisplayKindCompaction},
	{Role: "user", Content: "<SYSTEM_MESSAGE>Subagent Cron auditor finished.</SYSTEM_MESSAGE>", Kind: store.DisplayKindAgent},
	{Role: "assistant", Content: "Pruned the old dumps (only /mnt/nas/locked is not writable for me). The subagent found no other cron job that hides rsync errors."},
}

func TestImport(t *testing.T) {
	root := it.CopyTree(t, it.Fixtures(t, "antigravity"))
	st := it.Open(t)
	rep := it.Run(t, st, &Source{}, root)
	if rep.Files != 3 || rep.Sessions != 3 || rep.Malformed != 0 {
		t.Fatalf("report %+v: %s", rep, it.Problems(rep))
	}
	d := it.Dump(t, st)
	it.SameSession(t, d[cliID].Session, store.Session{ID: cliID, Source: SourceName, Model: "Gemini 3.1 Pro (High)", Title: "Nightly Backup Exit Status 12",
		Cwd: "/srv/backup", StartedAt: it.Time("2026-07-01T20:19:30Z"), EndedAt: it.Time("2026-07-01T20:22:41Z"), MessageCount: 14, ToolCallCount: 4})
	it.SameMsgs(t, cliID, d[cliID].Msgs, cliMsgs)

	child := d[childID]
	if child.ParentID != cliID || !strings.Contains(child.ModelConfig, cliID) || len(child.Msgs) != 4 ||
		child.Msgs[0].Kind != store.DisplayKindAgent || child.Title != "check /etc/cron.d jobs for scripts that hide rsync errors behind one exit code" ||
		child.Msgs[2].ToolName != "grep_search" || child.Msgs[2].Content != "/etc/cron.d/backup:3: 0 2 * * * root /srv/backup/backup.sh" {
		t.Errorf("sub-agent %+v %v", child.Session, child.Msgs)
	}

	ide := d[ideID]
	if ide.Title != "List API routes" || ide.Cwd != "/home/dev/api" || ide.Model != "" || len(ide.Msgs) != 4 {
		t.Errorf("IDE conversation %+v %v", ide.Session, ide.Msgs)
	}
	// The IDE writes each argument as JSON text of its value.
	if want := it.Calls("s3-0", "list_dir", `{"DirectoryPath":"/home/dev/api","toolAction":"Listing directory contents","toolSummary":"List Workspace Directory"}`); ide.Msgs[1].ToolCalls != want {
		t.Errorf("IDE call %s, want %s", ide.Msgs[1].ToolCalls, want)
	}
	if rep := it.Run(t, st, &Source{}, root); rep.Unchanged != 3 || rep.Messages != 0 {
		t.Errorf("again: %+v", rep)
	}
}

// TestCutThenFull: a conversation read from its cut log is read again from
// the full one when that appears, the cut rows replaced, nothing doubled.
func TestCutThenFull(t *testing.T) {
	root := it.CopyTree(t, it.Fixtures(t, "antigravity"))
	full := logOf(root, "antigravity-cli", cliID, fullLog)
	b, err := os.ReadFile(full)
	if err != nil {
		t.Fatal(err)
	}
	os.Remove(full)
	st := it.Open(t)
	it.Run(t, st, &Source{}, root)
	if got := it.Dump(t, st)[cliID].Msgs[4].Content; !strings.Contains(got, "<truncated 6 lines>") {
		t.Fatalf("cut log's view_file result: %q", got)
	}
	it.Write(t, full, string(b))
	it.Run(t, st, &Source{}, root)
	it.SameMsgs(t, cliID, it.Dump(t, st)[cliID].Msgs, cliMsgs)
}

// TestGrowing: a log read while Antigravity writes it, then again.
func TestGrowing(t *testing.T) {
	root := it.CopyTree(t, it.Fixtures(t, "antigravity"))
	full := logOf(root, "antigravity-cli", cliID, fullLog)
	b, err := os.ReadFile(full)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(b), "\n")
	it.Write(t, full, strings.Join(lines[:10], "")) // ends with two calls waiting for their results
	st := it.Open(t)
	it.Run(t, st, &Source{}, full)
	it.Write(t, full, string(b))
	it.Run(t, st, &Source{}, full)
	it.SameMsgs(t, cliID, it.Dump(t, st)[cliID].Msgs, cliMsgs)
}
