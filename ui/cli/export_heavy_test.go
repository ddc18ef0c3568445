//go:build heavy

package cli

import (
	"archive/zip"
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// exportRSSLimit is the peak RSS an import of any data export stays under.
const exportRSSLimit = 200 << 20

// writeExportZip writes a data export's zip whose conversations.json is
// what body writes.
func writeExportZip(t *testing.T, path string, body func(w *bufio.Writer)) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zw := zip.NewWriter(f)
	zf, err := zw.Create("conversations.json")
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriterSize(zf, 1<<20)
	body(w)
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
}

// repeat writes n MB of c.
func repeat(w *bufio.Writer, c byte, mb int) {
	chunk := []byte(strings.Repeat(string(c), 1<<20))
	for range mb {
		w.Write(chunk)
	}
}

// TestHostileExportsBounded imports the data exports issue 31 attacked
// with, each in its own process, and checks its peak RSS (getrusage) stays
// under 200 MB, what can be imported is, and what is too large is named:
// a 600 MB message in a zip of 612 KB (before: 3.56 GB RSS), a ChatGPT
// conversation of a million messages (2.18 GB), a Claude.ai message of
// 400 MB (1.80 GB). RECALL_EXPORT_MESSAGES sets the million.
func TestHostileExportsBounded(t *testing.T) {
	bin := buildRecall(t)
	dir := t.TempDir()
	n := 1_000_000
	if v := os.Getenv("RECALL_EXPORT_MESSAGES"); v != "" {
		fmt.Sscan(v, &n)
	}
	node := func(w *bufio.Writer, id, role, text string, at int) {
		fmt.Fprintf(w, `"%s":{"id":"%s","message":{"id":"%s","author":{"role":"%s"},"create_time":%d,"content":{"content_type":"text","parts":["%s`,
			id, id, id, role, 1700000000+at, text)
	}
	end := func(w *bufio.Writer, parent, child string) {
		p, c := "null", "[]"
		if parent != "" {
			p = `"` + parent + `"`
		}
		if child != "" {
			c = `["` + child + `"]`
		}
		fmt.Fprintf(w, `"]},"metadata":{}},"parent":%s,"children":%s}`, p, c)
	}
	small := `{"id":"small-2","conversation_id":"small-2","title":"small","create_time":1700000000,"mapping":{` +
		`"a":{"id":"a","message":{"id":"a","author":{"role":"user"},"create_time":1700000001,"content":{"content_type":"text","parts":["the conversation after the huge one"]},"metadata":{}},"parent":null,"children":[]}},"current_node":"a"}`
	for _, c := range []struct {
		name, source string
		body         func(w *bufio.Writer)
		sessions     int
		messages     int
		problem      string
	}{
		{"chatgpt-600mb-message.zip", "chatgpt", func(w *bufio.Writer) {
			w.WriteString(`[{"id":"big-1","conversation_id":"big-1","title":"big","create_time":1700000000,"mapping":{`)
			node(w, "m1", "user", "", 1)
			repeat(w, 'a', 600)
			end(w, "", "m2")
			w.WriteString(",")
			node(w, "m2", "assistant", "a short answer", 2)
			end(w, "m1", "")
			w.WriteString(`},"current_node":"m2"},` + small + `]`)
		}, 2, 2, "a user message of session big-1 at 2023-11-14T22:13:21Z: too large: the message is 600.0 MB, more than the 64 MB recall stores: skipped"},
		{"chatgpt-1m-messages.zip", "chatgpt", func(w *bufio.Writer) {
			w.WriteString(`[{"id":"many-1","conversation_id":"many-1","title":"many","create_time":1700000000,"mapping":{`)
			for i := range n {
				if i > 0 {
					w.WriteString(",")
				}
				id, parent, child := fmt.Sprintf("n%07d", i), "", ""
				if i > 0 {
					parent = fmt.Sprintf("n%07d", i-1)
				}
				if i < n-1 {
					child = fmt.Sprintf("n%07d", i+1)
				}
				node(w, id, []string{"user", "assistant"}[i%2], fmt.Sprintf("message number %d word%d", i, i), i)
				end(w, parent, child)
			}
			fmt.Fprintf(w, `},"current_node":"n%07d"},%s]`, n-1, small)
		}, 2, n + 1, ""},
		{"claude-400mb-message.zip", "claude-ai", func(w *bufio.Writer) {
			w.WriteString(`[{"uuid":"cbig-1","name":"big","created_at":"2024-01-01T00:00:00Z","chat_messages":[{"uuid":"u1","sender":"human","created_at":"2024-01-01T00:00:00Z","text":"`)
			repeat(w, 'b', 400)
			w.WriteString(`","content":[]},{"uuid":"u2","sender":"assistant","created_at":"2024-01-01T00:00:01Z","content":[{"type":"text","text":"a short answer"}]}]},`)
			w.WriteString(`{"uuid":"csmall-2","name":"small","created_at":"2024-01-01T00:00:00Z","chat_messages":[{"uuid":"x1","sender":"human","created_at":"2024-01-01T00:00:00Z","text":"the conversation after the huge one"}]}]`)
		}, 2, 2, "a user message of session cbig-1 at 2024-01-01T00:00:00Z: too large: the message is 400.0 MB, more than the 64 MB recall stores: skipped"},
	} {
		t.Run(c.name, func(t *testing.T) {
			file := filepath.Join(dir, c.name)
			writeExportZip(t, file, c.body)
			fi, _ := os.Stat(file)
			db := filepath.Join(dir, c.name+".db")
			t0 := time.Now()
			cmd := exec.Command(bin, "--db", db, "import", c.source, file)
			out, err := cmd.CombinedOutput()
			took := time.Since(t0)
			if err != nil {
				t.Fatalf("import: %v\n%s", err, out)
			}
			peak := cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss << 10
			t.Logf("%s (%.1f MB zipped): peak RSS %d MB, %s", c.name, float64(fi.Size())/(1<<20), peak>>20, took.Round(time.Second))
			want := fmt.Sprintf("%d sessions, %d messages imported", c.sessions, c.messages)
			if !strings.Contains(string(out), want) || c.problem != "" && !strings.Contains(string(out), c.problem) {
				t.Errorf("output lacks %q or %q:\n%s", want, c.problem, out)
			}
			if peak > exportRSSLimit {
				t.Errorf("peak RSS %d MB, over %d MB", peak>>20, exportRSSLimit>>20)
			}
			found, err := exec.Command(bin, "--db", db, "messages", "--json", "the conversation after the huge one").Output()
			if err != nil || !strings.Contains(string(found), "small") {
				t.Errorf("the conversation after the huge one is not searchable: %v\n%s", err, found)
			}
		})
	}
}
