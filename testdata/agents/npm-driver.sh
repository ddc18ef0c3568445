# npm-driver.sh: what the drive.sh of every npm-installed agent shares. Source it, do not run it.
#
#   . "$(dirname "$0")/../npm-driver.sh"
#   drv_init opencode opencode-ai 1.18.33 "$@"   # agent folder, npm package, default version, drive.sh args
#   drv_install                                   # npm install --prefix into $DRV_PKG (never global)
#   drv_fake_start                                # fakemodel.py on a free 127.0.0.1 port: $FAKE_URL
#   ... run the scenarios with HOME=$DRV_HOME, cwd under $DRV_HOME/work ...
#   drv_finish "scenario one" "scenario two"      # copy the files to $DRV_OUT/home, write manifest.json
#
# Environment: AGENT_VERSION (default the one given to drv_init; "latest" for the newest release),
# DRV_CACHE (a folder to keep installs in between runs; default a temporary folder).
set -euo pipefail

DRV_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

drv_init() {
	DRV_AGENT=$1 DRV_PACKAGE=$2
	DRV_VERSION=${AGENT_VERSION:-$3}
	shift 3
	DRV_OUT=${1:-$DRV_DIR/$DRV_AGENT}
	mkdir -p "$DRV_OUT"
	DRV_OUT=$(cd "$DRV_OUT" && pwd)
	# A fixed folder, so the paths the agent records (cwd, project) are the same in every run.
	DRV_TMP=/tmp/drv-$DRV_AGENT
	rm -rf "$DRV_TMP"
	mkdir -p "$DRV_TMP"
	DRV_HOME=$DRV_TMP/home
	# A fixed-looking project folder so paths in the fixtures do not name the machine.
	DRV_WORK=$DRV_HOME/work/demo
	mkdir -p "$DRV_WORK"
	DRV_PKG=${DRV_CACHE:-$DRV_TMP/pkg}/$DRV_AGENT-$DRV_VERSION
	trap drv_cleanup EXIT
}

drv_cleanup() {
	drv_fake_stop || true
	[ -n "${DRV_KEEP:-}" ] || rm -rf "$DRV_TMP"
}

# drv_install installs the package at DRV_VERSION into DRV_PKG and sets DRV_BIN_DIR and the installed
# version (DRV_VERSION, resolved when it was "latest").
drv_install() {
	if [ ! -d "$DRV_PKG/node_modules/$DRV_PACKAGE" ]; then
		mkdir -p "$DRV_PKG"
		# DRV_EXTRA_PACKAGES: what the agent needs besides itself (Oh My Pi runs on bun).
		npm install --prefix "$DRV_PKG" --no-audit --no-fund "$DRV_PACKAGE@$DRV_VERSION" ${DRV_EXTRA_PACKAGES:-} >"$DRV_TMP/npm.log" 2>&1 ||
			{ cat "$DRV_TMP/npm.log" >&2; echo "npm install $DRV_PACKAGE@$DRV_VERSION failed" >&2; return 1; }
	fi
	DRV_VERSION=$(node -p "require('$DRV_PKG/node_modules/$DRV_PACKAGE/package.json').version")
	DRV_BIN_DIR=$DRV_PKG/node_modules/.bin
}

# drv_fake_start starts the fake model with $DRV_SCRIPT (default script.json next to drive.sh).
drv_fake_start() {
	local script=${DRV_SCRIPT:-$DRV_DIR/$DRV_AGENT/script.json}
	FAKE_PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
	FAKE_LOG=$DRV_TMP/requests.jsonl FAKE_SCRIPT=$script FAKE_PORT=$FAKE_PORT \
		python3 "$DRV_DIR/fakemodel.py" >"$DRV_TMP/fake.log" 2>&1 &
	DRV_FAKE_PID=$!
	for _ in $(seq 50); do
		curl -s "http://127.0.0.1:$FAKE_PORT/v1/models" >/dev/null 2>&1 && break
		sleep 0.1
	done
	FAKE_URL=http://127.0.0.1:$FAKE_PORT/v1
	export FAKE_URL FAKE_PORT
}

drv_fake_stop() {
	if [ -n "${DRV_FAKE_PID:-}" ]; then
		kill "$DRV_FAKE_PID" 2>/dev/null || true
		wait "$DRV_FAKE_PID" 2>/dev/null || true
		DRV_FAKE_PID=
	fi
}

# drv_run runs the agent's command with the isolated HOME, in the project folder, offline but for the
# fake model; a scenario that fails is reported and the driver goes on (a failing tool is a scenario).
drv_run() {
	(cd "$DRV_WORK" && env HOME="$DRV_HOME" XDG_DATA_HOME="$DRV_HOME/.local/share" \
		XDG_CONFIG_HOME="$DRV_HOME/.config" XDG_STATE_HOME="$DRV_HOME/.local/state" XDG_CACHE_HOME="$DRV_HOME/.cache" \
		PATH="$DRV_BIN_DIR:$PATH" NO_COLOR=1 CI=1 DO_NOT_TRACK=1 \
		HTTP_PROXY= HTTPS_PROXY= http_proxy= https_proxy= NO_PROXY=127.0.0.1,localhost \
		timeout "${DRV_TIMEOUT:-120}" "$@") </dev/null >>"$DRV_TMP/agent.log" 2>&1 ||
		echo "drive $DRV_AGENT: '$*' exited $?" >&2
}

# drv_finish copies the session files (DRV_KEEP_PATHS: paths under DRV_HOME) into $DRV_OUT/home and
# writes manifest.json listing the scenarios given and the files.
drv_finish() {
	drv_fake_stop
	rm -rf "$DRV_OUT/home"
	local p
	for p in $DRV_KEEP_PATHS; do
		[ -e "$DRV_HOME/$p" ] || continue
		mkdir -p "$DRV_OUT/home/$(dirname "$p")"
		cp -a "$DRV_HOME/$p" "$DRV_OUT/home/$p"
	done
	# A database is kept checkpointed (what the agent leaves when it exits cleanly), without its -wal.
	find "$DRV_OUT/home" -name '*.db' -exec python3 -c 'import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute("PRAGMA wal_checkpoint(TRUNCATE)"); c.close()' {} \;
	find "$DRV_OUT/home" \( -name '*.db-wal' -o -name '*.db-shm' \) -delete
	python3 - "$DRV_OUT" "$DRV_AGENT" "$DRV_PACKAGE" "$DRV_VERSION" "$@" <<'EOF'
import json, os, subprocess, sys, datetime
out, agent, package, version, *scenarios = sys.argv[1:]
files = []
for root, _, names in os.walk(os.path.join(out, "home")):
    files += [os.path.relpath(os.path.join(root, n), out) for n in names]
m = {"agent": agent, "package": package, "version": version,
     "node": subprocess.run(["node", "--version"], capture_output=True, text=True).stdout.strip(),
     "generated": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
     "scenarios": scenarios, "files": sorted(files)}
with open(os.path.join(out, "manifest.json"), "w") as f:
    json.dump(m, f, indent=2, ensure_ascii=False)
    f.write("\n")
EOF
	echo "drive $DRV_AGENT $DRV_VERSION: $(find "$DRV_OUT/home" -type f | wc -l) files in $DRV_OUT/home"
}
