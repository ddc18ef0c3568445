package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"
)

// The sync timer that `recall service install --sync` adds beside the
// watch service: `recall sync --both` (config.json's hosts) every few
// minutes, a systemd user timer on Linux, a launchd agent with a
// StartInterval on macOS.
const (
	syncUnit    = "recall-sync.service"
	syncTimer   = "recall-sync.timer"
	syncLabel   = "dev.recall.sync"
	defaultSync = 15 * time.Minute
)

// syncTimerFiles are the files of the timer, by path, that run exe
// --db db sync --both every interval: a systemd unit and timer (goos
// "linux") or a launchd agent (goos "darwin"); dir is where the watch
// service's own file goes.
func syncTimerFiles(goos, dir, exe, db string, every time.Duration) map[string]string {
	if goos == "darwin" {
		var args strings.Builder
		for _, a := range []string{exe, "--db", db, "sync", "--both"} {
			fmt.Fprintf(&args, "\t\t<string>%s</string>\n", xmlEscape(a))
		}
		return map[string]string{filepath.Join(dir, syncLabel+".plist"): `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
	<key>Label</key>
	<string>` + syncLabel + `</string>
	<key>ProgramArguments</key>
	<array>
` + args.String() + `	</array>
	<key>StartInterval</key>
	<integer>` + fmt.Sprint(int(every.Seconds())) + `</integer>
	<key>RunAtLoad</key>
	<true/>
	<key>ProcessType</key>
	<string>Background</string>
</dict>
</plist>
`}
	}
	return map[string]string{
		filepath.Join(dir, syncUnit): `# Written by recall service install --sync: one history across machines.
[Unit]
Description=recall sync: pull from and push to the hosts in recall's config.json

[Service]
Type=oneshot
ExecStart=` + systemdQuote(exe) + ` --db ` + systemdQuote(db) + ` sync --both
Nice=10
`,
		filepath.Join(dir, syncTimer): `# Written by recall service install --sync.
[Unit]
Description=recall sync every ` + every.String() + `

[Timer]
OnBootSec=2min
OnUnitActiveSec=` + fmt.Sprint(int(every.Seconds())) + `s
RandomizedDelaySec=30s
Persistent=true

[Install]
WantedBy=timers.target
`}
}

// syncTimerInstall writes the timer beside the watch service's file path
// and starts it.
func syncTimerInstall(env *Env, path string, every time.Duration) error {
	exe, db, err := serviceTarget(env)
	if err != nil {
		return err
	}
	for p, body := range syncTimerFiles(runtime.GOOS, filepath.Dir(path), exe, db, every) {
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			return err
		}
		fmt.Fprintf(env.Stdout, "wrote %s (recall sync --both every %s)\n", p, every)
	}
	tool, start := "systemctl", [][]string{{"--user", "daemon-reload"}, {"--user", "enable", "--now", syncTimer}}
	if runtime.GOOS == "darwin" {
		tool, start = "launchctl", [][]string{{"load", "-w", filepath.Join(filepath.Dir(path), syncLabel+".plist")}}
	}
	for _, a := range start {
		if err := serviceCommand(tool, a...); err != nil {
			return fmt.Errorf("the sync timer is installed but not started (%v): start it with: %s %s", err, tool, strings.Join(start[len(start)-1], " "))
		}
	}
	fmt.Fprintln(env.Stdout, "sync timer started: the hosts are config.json's sync.hosts")
	return nil
}

// syncTimerUninstall stops and removes the timer.
func syncTimerUninstall(env *Env, path string) error {
	files := syncTimerFiles(runtime.GOOS, filepath.Dir(path), "", "", defaultSync)
	found := false
	for p := range files {
		if _, err := os.Stat(p); err == nil {
			found = true
		}
	}
	if !found {
		fmt.Fprintln(env.Stdout, "sync timer: not installed")
		return nil
	}
	if runtime.GOOS == "darwin" {
		_ = serviceCommand("launchctl", "unload", "-w", filepath.Join(filepath.Dir(path), syncLabel+".plist"))
	} else {
		_ = serviceCommand("systemctl", "--user", "disable", "--now", syncTimer)
	}
	for p := range files {
		if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		fmt.Fprintf(env.Stdout, "removed %s\n", p)
	}
	if runtime.GOOS != "darwin" {
		_ = os.Remove(filepath.Join(filepath.Dir(path), "timers.target.wants", syncTimer))
		_ = serviceCommand("systemctl", "--user", "daemon-reload")
	}
	return nil
}

// syncTimerStatus says whether the timer is installed and active.
func syncTimerStatus(env *Env, path string) {
	dir := filepath.Dir(path)
	main := filepath.Join(dir, syncTimer)
	if runtime.GOOS == "darwin" {
		main = filepath.Join(dir, syncLabel+".plist")
	}
	if _, err := os.Stat(main); err != nil {
		fmt.Fprintln(env.Stdout, "sync timer: not installed (recall service install --sync sets it up)")
		return
	}
	fmt.Fprintf(env.Stdout, "sync timer: installed: %s\n", main)
	if runtime.GOOS == "darwin" {
		fmt.Fprintf(env.Stdout, "sync timer loaded: %s\n", yesNo(serviceCommand("launchctl", "list", syncLabel) == nil))
		return
	}
	fmt.Fprintf(env.Stdout, "sync timer active: %s\n", yesNo(serviceCommand("systemctl", "--user", "is-active", "--quiet", syncTimer) == nil))
}

// serviceTarget is what a service runs: recall's own resolved path, and the
// database's absolute path.
func serviceTarget(env *Env) (exe, db string, err error) {
	if exe, err = os.Executable(); err != nil {
		return "", "", fmt.Errorf("find recall's own path: %w", err)
	}
	if r, err := filepath.EvalSymlinks(exe); err == nil {
		exe = r
	}
	db, err = filepath.Abs(env.DBPath)
	return exe, db, err
}
