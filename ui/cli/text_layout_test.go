package cli

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// demoDBOnce is the embedded demo history imported once for this package's
// text layout tests (they only read it).
var demoDBOnce struct {
	sync.Once
	path string
	err  string
}

// demoDB returns a database holding the demo history (assets/demo).
func demoDB(t *testing.T) string {
	t.Helper()
	demoDBOnce.Do(func() {
		dir, err := os.MkdirTemp("", "recall-cli-demo-")
		if err != nil {
			demoDBOnce.err = err.Error()
			return
		}
		afterTests = append(afterTests, func() { os.RemoveAll(dir) })
		files, _ := filepath.Glob(filepath.Join("..", "..", "assets", "demo", "*.jsonl"))
		demoDBOnce.path = filepath.Join(dir, "demo.db")
		code, _, errOut := runCLI(t, false, append([]string{"--db", demoDBOnce.path, "import", "jsonl"}, files...)...)
		if code != 0 {
			demoDBOnce.err = errOut
		}
	})
	if demoDBOnce.err != "" {
		t.Fatalf("import the demo: %s", demoDBOnce.err)
	}
	return demoDBOnce.path
}

// recall show prints a tool call's arguments decoded, one per line, never
// the stored JSON with its escaped quotes (issue 32: `\"$NET\"`).
func TestShowDecodesToolCalls(t *testing.T) {
	code, out, errOut := runCLI(t, false, "--db", demoDB(t), "show", "3f2a9c1e-docker-dns")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"  ⚙ Edit\n", "      file_path: /home/dev/src/ledgerly/scripts/dev-up.sh\n", `docker network inspect "$NET"`} {
		if !strings.Contains(out, want) {
			t.Errorf("show lacks %q", want)
		}
	}
	if strings.Contains(out, `\"`) || strings.Contains(out, `"arguments"`) {
		t.Errorf("show prints stored JSON:\n%s", out)
	}
}
