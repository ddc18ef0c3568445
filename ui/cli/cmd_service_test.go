package cli

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestServiceLinux: `recall service install` writes a systemd user unit
// running `recall --db DB watch` under $XDG_CONFIG_HOME and enables it;
// status reads installed/enabled from the files; uninstall removes it. No
// real systemctl is run: the calls are recorded.
func TestServiceLinux(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("systemd unit: Linux only")
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
	db := filepath.Join(t.TempDir(), "my db", "state.db")

	code, out, errOut := runCLI(t, false, "--db", db, "service", "install")
	if code != 0 {
		t.Fatalf("install: exit %d: %s", code, errOut)
	}
	unit := filepath.Join(cfg, "systemd", "user", "recall-watch.service")
	raw, err := os.ReadFile(unit)
	if err != nil {
		t.Fatalf("no unit: %v (stdout %q)", err, out)
	}
	exe, _ := os.Executable()
	exe, _ = filepath.EvalSymlinks(exe)
	for _, want := range []string{"[Service]", "ExecStart=" + exe + ` --db "` + db + `" watch`, "Restart=on-failure", "[Install]", "WantedBy=default.target"} {
		if !strings.Contains(string(raw), want) {
			t.Errorf("unit lacks %q:\n%s", want, raw)
		}
	}
	if got := strings.Join(calls, "; "); got != "systemctl --user daemon-reload; systemctl --user enable --now recall-watch.service" {
		t.Errorf("systemctl calls: %s", got)
	}

	_, out, _ = runCLI(t, false, "service", "status")
	if !strings.Contains(out, "installed: "+unit) || !strings.Contains(out, "enabled: no") {
		t.Errorf("status before enabling:\n%s", out)
	}
	// What `systemctl --user enable` makes.
	wants := filepath.Join(cfg, "systemd", "user", "default.target.wants")
	os.MkdirAll(wants, 0o755)
	os.Symlink(unit, filepath.Join(wants, "recall-watch.service"))
	_, out, _ = runCLI(t, false, "service", "status")
	if !strings.Contains(out, "enabled: yes") || !strings.Contains(out, "runs: "+exe) {
		t.Errorf("status when enabled:\n%s", out)
	}

	calls = nil
	if code, _, errOut := runCLI(t, false, "service", "uninstall"); code != 0 {
		t.Fatalf("uninstall: %s", errOut)
	}
	if _, err := os.Stat(unit); !os.IsNotExist(err) {
		t.Errorf("unit still there: %v", err)
	}
	if !strings.Contains(strings.Join(calls, "; "), "systemctl --user disable --now recall-watch.service") {
		t.Errorf("uninstall calls: %v", calls)
	}
	_, out, _ = runCLI(t, false, "service", "status")
	if !strings.HasPrefix(out, "not installed") {
		t.Errorf("status after uninstall: %s", out)
	}
	if code, _, _ := runCLI(t, false, "service", "restart"); code != 2 {
		t.Errorf("unknown action: exit %d, want 2", code)
	}
}

// TestServiceInstallFails: when systemctl cannot start the unit (no user
// bus, as over ssh), install writes the unit, exits 1 and says what to
// run. Before: "installed but not started" and exit 0.
func TestServiceInstallFails(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("systemd unit: Linux only")
	}
	isolateAgents(t)
	cfg := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", cfg)
	t.Setenv("USER", "dev")
	for _, c := range []struct {
		failing, want string
	}{
		{"daemon-reload", "start it with `systemctl --user daemon-reload && systemctl --user enable --now recall-watch.service`"},
		{"enable", "start it with `systemctl --user enable --now recall-watch.service`"},
	} {
		old := serviceCommand
		serviceCommand = func(name string, args ...string) error {
			if args[1] == c.failing {
				return errors.New("systemctl --user " + c.failing + ": exit status 1: Failed to connect to bus: No medium found")
			}
			return nil
		}
		code, out, errOut := runCLI(t, false, "--db", filepath.Join(t.TempDir(), "state.db"), "service", "install")
		serviceCommand = old
		unit := filepath.Join(cfg, "systemd", "user", "recall-watch.service")
		if _, err := os.Stat(unit); err != nil {
			t.Errorf("%s failing: the unit was not written: %v", c.failing, err)
		}
		if code != 1 || !strings.Contains(errOut, "wrote "+unit+" but could not start it: ") || !strings.Contains(errOut, c.want) ||
			!strings.Contains(errOut, "loginctl enable-linger dev") || strings.Contains(out, "started") {
			t.Errorf("%s failing: exit %d\n%s%s", c.failing, code, out, errOut)
		}
	}
}
