package cli

import (
	"strings"
	"testing"

	"github.com/recall-dev/recall/store/importer"
)

// The import line of `recall help` names every registered source and the
// ones that need a PATH. It was a fixed list of the first five sources.
func TestHelpListsEveryImportSource(t *testing.T) {
	isolate(t)
	code, out, errs := runCLI(t, false, "help")
	if code != 0 || errs != "" {
		t.Fatalf("recall help: exit %d, stderr %q", code, errs)
	}
	var line string
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "import ") {
			line = l
		}
	}
	sources := importer.Sources()
	if len(sources) < 20 {
		t.Fatalf("%d sources registered, want every one of store/importer/all", len(sources))
	}
	for _, s := range sources {
		if !strings.Contains(line, " "+s.Name()+",") && !strings.Contains(line, " "+s.Name()+";") && !strings.Contains(line, "("+s.Name()+",") {
			t.Errorf("import line does not name %s: %q", s.Name(), line)
		}
	}
	for _, name := range []string{"chatgpt", "claude-ai", "aider"} {
		if !strings.Contains(line[strings.LastIndex(line, ";"):], name) {
			t.Errorf("import line does not say %s needs a PATH: %q", name, line)
		}
	}
}
