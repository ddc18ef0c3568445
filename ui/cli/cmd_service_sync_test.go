package cli

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestServiceSyncTimer: `recall service install --sync` adds a systemd user
// timer running `recall --db DB sync --both` beside the watch service;
// status names it; `uninstall --sync` removes the timer and leaves watch.
func TestServiceSyncTimer(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("systemd units: Linux only")
	}
	isolateAgents(t)
	cfg := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", cfg)
	var calls []string
	old := serviceCommand
	serviceCommand = func(name string, args ...string) error {
		calls = append(calls, name+" "+strings.Join(args, " "))
		return nil
	}
	defer func() { serviceCommand = old }()
	db := filepath.Join(t.TempDir(), "state.db")
	code, out, errOut := runCLI(t, false, "--db", db, "service", "install", "--sync", "--every", "10m")
	if code != 0 {
		t.Fatalf("install --sync: exit %d: %s", code, errOut)
	}
	dir := filepath.Join(cfg, "systemd", "user")
	exe, _ := os.Executable()
	exe, _ = filepath.EvalSymlinks(exe)
	for file, wants := range map[string][]string{
		"recall-watch.service": {" watch"},
		"recall-sync.service":  {"Type=oneshot", "ExecStart=" + exe + " --db " + db + " sync --both"},
		"recall-sync.timer":    {"OnUnitActiveSec=600s", "Persistent=true", "WantedBy=timers.target"},
	} {
		raw, err := os.ReadFile(filepath.Join(dir, file))
		if err != nil {
			t.Fatalf("%s: %v (stdout %s)", file, err, out)
		}
		for _, w := range wants {
			if !strings.Contains(string(raw), w) {
				t.Errorf("%s lacks %q:\n%s", file, w, raw)
			}
		}
	}
	if got := strings.Join(calls, "; "); !strings.Contains(got, "systemctl --user enable --now recall-sync.timer") {
		t.Errorf("systemctl calls: %s", got)
	}
	if _, out, _ = runCLI(t, false, "service", "status"); !strings.Contains(out, "sync timer: installed: "+filepath.Join(dir, "recall-sync.timer")) {
		t.Errorf("status:\n%s", out)
	}
	if code, _, errOut := runCLI(t, false, "service", "install", "--sync", "--every", "10s"); code != 2 || !strings.Contains(errOut, "at least 1m") {
		t.Errorf("--every 10s: exit %d, %s", code, errOut)
	}
	if code, _, errOut := runCLI(t, false, "service", "uninstall", "--sync"); code != 0 {
		t.Fatalf("uninstall --sync: %s", errOut)
	}
	for file, want := range map[string]bool{"recall-watch.service": true, "recall-sync.service": false, "recall-sync.timer": false} {
		if _, err := os.Stat(filepath.Join(dir, file)); (err == nil) != want {
			t.Errorf("after uninstall --sync, %s present = %v, want %v", file, err == nil, want)
		}
	}
}
