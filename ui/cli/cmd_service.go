package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"
)

// The user service that runs `recall watch`, so that transcripts are
// imported as agents write them, before an agent's retention deletes them:
// a systemd user unit on Linux, a launchd agent on macOS.
const (
	serviceUnit  = "recall-watch.service"
	serviceLabel = "dev.recall.watch"
)

// serviceCommand runs systemctl or launchctl; tests replace it (they never
// start a real service).
var serviceCommand = func(name string, args ...string) error {
	if _, err := exec.LookPath(name); err != nil {
		return fmt.Errorf("%s not found", name)
	}
	out, err := exec.Command(name, args...).CombinedOutput()
	if err != nil {
		return fmt.Errorf("%s %s: %v: %s", name, strings.Join(args, " "), err, strings.TrimSpace(string(out)))
	}
	return nil
}

// serviceFile is where the unit (Linux) or the agent's plist (macOS) goes.
func serviceFile() (string, error) {
	switch runtime.GOOS {
	case "linux":
		cfg := os.Getenv("XDG_CONFIG_HOME")
		if cfg == "" {
			home, err := os.UserHomeDir()
			if err != nil {
				return "", err
			}
			cfg = filepath.Join(home, ".config")
		}
		return filepath.Join(cfg, "systemd", "user", serviceUnit), nil
	case "darwin":
		home, err := os.UserHomeDir()
		if err != nil {
			return "", err
		}
		return filepath.Join(home, "Library", "LaunchAgents", serviceLabel+".plist"), nil
	}
	return "", fmt.Errorf("recall service knows systemd (Linux) and launchd (macOS), not %s: run `recall watch` from your own service manager", runtime.GOOS)
}

// systemdQuote quotes an ExecStart word when it needs it.
func systemdQuote(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t\"'\\$%;") {
		return s
	}
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, `$`, `$$`, `%`, `%%`)
	return `"` + r.Replace(s) + `"`
}

func xmlEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;").Replace(s)
}

// serviceContent is the unit (goos "linux") or the plist (goos "darwin")
// running exe --db db watch.
func serviceContent(goos, exe, db string) string {
	if goos == "darwin" {
		var args strings.Builder
		for _, a := range []string{exe, "--db", db, "watch"} {
			fmt.Fprintf(&args, "\t\t<string>%s</string>\n", xmlEscape(a))
		}
		return `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
	<key>Label</key>
	<string>` + serviceLabel + `</string>
	<key>ProgramArguments</key>
	<array>
` + args.String() + `	</array>
	<key>RunAtLoad</key>
	<true/>
	<key>KeepAlive</key>
	<true/>
	<key>ProcessType</key>
	<string>Background</string>
</dict>
</plist>
`
	}
	return `# Written by recall service install: keeps importing AI agents' histories
# into recall as they are written, before the agents delete them.
[Unit]
Description=recall watch: import AI agent histories as they are written

[Service]
Type=simple
ExecStart=` + systemdQuote(exe) + ` --db ` + systemdQuote(db) + ` watch
Restart=on-failure
RestartSec=30
Nice=10

[Install]
WantedBy=default.target
`
}

func runService(env *Env, c *Command, args []string) error {
	fs := newFlags(c, env)
	withSync := fs.Bool("sync", false, "install: also run `recall sync --both` (config.json's hosts) on a timer; uninstall: remove that timer only")
	every := fs.Duration("every", defaultSync, "with --sync: how often the timer syncs")
	words, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(words) != 1 {
		return usageError("say install, uninstall or status")
	}
	if *withSync && *every < time.Minute {
		return usageError("--every must be at least 1m, got %s", *every)
	}
	path, err := serviceFile()
	if err != nil {
		return err
	}
	switch words[0] {
	case "install":
		if err := serviceInstall(env, path); err != nil || !*withSync {
			return err
		}
		return syncTimerInstall(env, path, *every)
	case "uninstall":
		if *withSync {
			return syncTimerUninstall(env, path)
		}
		return serviceUninstall(env, path)
	case "status":
		err := serviceStatus(env, path)
		syncTimerStatus(env, path)
		return err
	}
	return usageError("unknown service action %q: install, uninstall or status", words[0])
}

func serviceInstall(env *Env, path string) error {
	exe, db, err := serviceTarget(env)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(path, []byte(serviceContent(runtime.GOOS, exe, db)), 0o644); err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "wrote %s (recall watch into %s)\n", path, db)
	var start [][]string
	tool := "systemctl"
	if runtime.GOOS == "darwin" {
		tool = "launchctl"
		start = [][]string{{"load", "-w", path}}
	} else {
		start = [][]string{{"--user", "daemon-reload"}, {"--user", "enable", "--now", serviceUnit}}
	}
	for i, a := range start {
		if err := serviceCommand(tool, a...); err != nil {
			// The unit is written but nothing runs it: a failure, with the
			// commands that finish the job.
			var rest []string
			for _, b := range start[i:] {
				rest = append(rest, tool+" "+strings.Join(b, " "))
			}
			hint := ""
			if tool == "systemctl" {
				hint = " (with no user session, as over ssh or in a container, `loginctl enable-linger " + userName() + "` first gives it one; or run `recall watch` yourself)"
			}
			return fmt.Errorf("wrote %s but could not start it: %v; start it with `%s`%s", path, err, strings.Join(rest, " && "), hint)
		}
	}
	fmt.Fprintln(env.Stdout, "started; it starts again at every login")
	return nil
}

// userName is the login name for a hint ("$USER" when it cannot tell).
func userName() string {
	if u := os.Getenv("USER"); u != "" {
		return u
	}
	return "$USER"
}

func serviceUninstall(env *Env, path string) error {
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		fmt.Fprintln(env.Stdout, "not installed")
		return nil
	}
	if runtime.GOOS == "darwin" {
		_ = serviceCommand("launchctl", "unload", "-w", path)
	} else {
		// Best effort: the unit goes either way, and systemctl may be absent.
		_ = serviceCommand("systemctl", "--user", "disable", "--now", serviceUnit)
	}
	if err := os.Remove(path); err != nil {
		return err
	}
	if runtime.GOOS != "darwin" {
		_ = os.Remove(filepath.Join(filepath.Dir(path), "default.target.wants", serviceUnit))
		_ = serviceCommand("systemctl", "--user", "daemon-reload")
	}
	fmt.Fprintf(env.Stdout, "removed %s\n", path)
	return nil
}

// serviceStatus says whether the service is installed, enabled (started at
// login) and running, from the files themselves where it can.
func serviceStatus(env *Env, path string) error {
	raw, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		fmt.Fprintln(env.Stdout, "not installed (recall service install sets it up)")
		return nil
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "installed: %s\n", path)
	for _, l := range strings.Split(string(raw), "\n") {
		if strings.HasPrefix(l, "ExecStart=") {
			fmt.Fprintf(env.Stdout, "runs: %s\n", strings.TrimPrefix(l, "ExecStart="))
		}
	}
	if runtime.GOOS == "darwin" {
		running := serviceCommand("launchctl", "list", serviceLabel) == nil
		fmt.Fprintf(env.Stdout, "loaded: %s\n", yesNo(running))
		return nil
	}
	_, err = os.Lstat(filepath.Join(filepath.Dir(path), "default.target.wants", serviceUnit))
	fmt.Fprintf(env.Stdout, "enabled: %s\n", yesNo(err == nil))
	active := serviceCommand("systemctl", "--user", "is-active", "--quiet", serviceUnit) == nil
	fmt.Fprintf(env.Stdout, "running: %s\n", yesNo(active))
	return nil
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}
