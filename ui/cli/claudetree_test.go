package cli

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// claudeTree is a generated Claude Code projects folder and what importing
// it must produce.
type claudeTree struct {
	Dir      string // the projects folder
	Files    int
	Sessions int
	Messages int
	Bytes    int64
	Paths    []string // the transcripts, oldest first (file i is i hours after the first)
}

// treeWords are the vocabulary of generated messages.
var treeWords = strings.Fields(`the build fails on staging because the overlay network is missing
docker compose deploy migrate schema sqlite index query planner trigram token latency
refactor handler middleware retry backoff context cancel goroutine channel deadlock
kubernetes ingress certificate renew cron job queue worker parse json stream buffer
flaky test race detector benchmark profile allocation cache invalidation config env
commit branch rebase conflict merge review lint format vet module proxy vendor`)

// claudeSessionID is a UUID-shaped session id for file i.
func claudeSessionID(i int) string { return fmt.Sprintf("%08x-0000-4000-8000-%012x", i, i*7919) }

// writeClaudeTree writes files transcripts of about msgsPerFile messages
// each (words per message around words) under dir/projects/<slug>/: user
// prompts, assistant replies (some split over two lines sharing a
// message.id, some with a tool call), tool results and a few bookkeeping
// records that are skipped. Every session has messages, so Sessions == Files.
func writeClaudeTree(t testing.TB, dir string, files, msgsPerFile, words int) claudeTree {
	t.Helper()
	projects := filepath.Join(dir, "projects")
	tree := claudeTree{Dir: projects, Files: files, Sessions: files}
	rng := rand.New(rand.NewSource(42))
	text := func() string {
		n := words/2 + rng.Intn(words+1)
		var b strings.Builder
		for i := 0; i < n; i++ {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(treeWords[rng.Intn(len(treeWords))])
		}
		return b.String()
	}
	base := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	for f := 0; f < files; f++ {
		slug := fmt.Sprintf("-home-dev-proj%02d", f%12)
		sid := claudeSessionID(f)
		path := filepath.Join(projects, slug, sid+".jsonl")
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		fh, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		w := bufio.NewWriterSize(fh, 1<<16)
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		put := func(v any) {
			if err := enc.Encode(v); err != nil {
				t.Fatal(err)
			}
		}
		cwd := "/home/dev/proj" + fmt.Sprint(f%12)
		env := func(typ, uuid, parent string, ts time.Time) map[string]any {
			m := map[string]any{"type": typ, "uuid": uuid, "sessionId": sid, "timestamp": ts.Format(time.RFC3339Nano),
				"cwd": cwd, "gitBranch": "main", "version": "2.1.0", "isSidechain": false, "userType": "external"}
			if parent == "" {
				m["parentUuid"] = nil
			} else {
				m["parentUuid"] = parent
			}
			return m
		}
		put(map[string]any{"type": "file-history-snapshot", "messageId": "snap", "snapshot": map[string]any{}})
		ts := base.Add(time.Duration(f) * time.Hour)
		prev, pendingTool := "", ""
		for m := 0; m < msgsPerFile; m++ {
			ts = ts.Add(time.Second)
			uuid := fmt.Sprintf("%s-u%05d", sid[:8], m)
			switch {
			case m%2 == 0 && pendingTool != "":
				r := env("user", uuid, prev, ts)
				r["toolUseResult"] = "ok"
				r["message"] = map[string]any{"role": "user", "content": []any{map[string]any{
					"type": "tool_result", "tool_use_id": pendingTool, "content": text(), "is_error": false}}}
				put(r)
				pendingTool = ""
			case m%2 == 0:
				r := env("user", uuid, prev, ts)
				r["message"] = map[string]any{"role": "user", "content": text()}
				put(r)
			default:
				msgID := fmt.Sprintf("msg_%s_%05d", sid[:8], m)
				content := []any{map[string]any{"type": "text", "text": text()}}
				var tool map[string]any
				if m%10 == 1 && m+1 < msgsPerFile {
					pendingTool = fmt.Sprintf("toolu_%s_%05d", sid[:8], m)
					tool = map[string]any{"type": "tool_use", "id": pendingTool, "name": "Bash",
						"input": map[string]any{"command": "go test ./..."}}
				}
				asst := func(uuid string, blocks []any) {
					r := env("assistant", uuid, prev, ts)
					r["requestId"] = "req_" + msgID
					r["message"] = map[string]any{"id": msgID, "type": "message", "role": "assistant",
						"model": "claude-sonnet-4-5", "content": blocks, "stop_reason": "end_turn",
						"usage": map[string]any{"input_tokens": 100 + m, "output_tokens": 20 + m%50}}
					put(r)
				}
				if tool != nil && m%20 == 1 {
					// One API message split over two lines sharing message.id.
					asst(uuid, content)
					asst(uuid+"b", []any{tool})
				} else {
					if tool != nil {
						content = append(content, tool)
					}
					asst(uuid, content)
				}
			}
			prev = uuid
			tree.Messages++
		}
		put(map[string]any{"type": "last-prompt", "lastPrompt": "bye", "sessionId": sid})
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		fi, err := fh.Stat()
		if err != nil {
			t.Fatal(err)
		}
		tree.Bytes += fi.Size()
		if err := fh.Close(); err != nil {
			t.Fatal(err)
		}
		// The file was last written with its last record, as Claude Code's are.
		if err := os.Chtimes(path, ts, ts); err != nil {
			t.Fatal(err)
		}
		tree.Paths = append(tree.Paths, path)
	}
	return tree
}
