package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The README's shell bindings for recall pick parse in the shells they are
// for (each shell's -n: read without running), and call recall pick.
func TestReadmeShellBindingsParse(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	sec := string(readme)
	start := strings.Index(sec, "### Shell integration")
	if start < 0 {
		t.Fatal("README has no Shell integration section")
	}
	sec = sec[start:]
	if end := strings.Index(sec[4:], "\n##"); end >= 0 {
		sec = sec[:end+4]
	}
	blocks := regexp.MustCompile("(?s)```(bash|zsh|fish)\n(.*?)```").FindAllStringSubmatch(sec, -1)
	seen := map[string]bool{}
	for _, b := range blocks {
		shell, code := b[1], b[2]
		seen[shell] = true
		if !strings.Contains(code, "recall pick") {
			t.Errorf("the %s binding does not call recall pick", shell)
		}
		t.Run(shell, func(t *testing.T) {
			path, err := exec.LookPath(shell)
			if err != nil {
				t.Skipf("%s not installed", shell)
			}
			f := filepath.Join(t.TempDir(), "binding."+shell)
			if err := os.WriteFile(f, []byte(code), 0o600); err != nil {
				t.Fatal(err)
			}
			if out, err := exec.Command(path, "-n", f).CombinedOutput(); err != nil || len(out) > 0 {
				t.Errorf("%s -n: %v\n%s\n%s", shell, err, out, code)
			}
		})
	}
	for _, shell := range []string{"bash", "zsh", "fish"} {
		if !seen[shell] {
			t.Errorf("no %s binding in the README", shell)
		}
	}
}
