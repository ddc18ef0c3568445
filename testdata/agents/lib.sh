# What every driver (<agent>/drive.sh) shares: install an agent into a temporary npm prefix, start
# the fake model on a free 127.0.0.1 port, isolate HOME, copy what the agent wrote, and write
# manifest.json. Sourced, not run. Three families of functions, one per generation of drivers, keep
# their own HOME layout and variables (the fixtures record those paths); they share the fake-model
# start and the manifest writer below.
#
#   setup_run, scenario, collect, write_manifest   claude-code, codex, gemini-cli
#   drv_*                                          opencode, opencode-legacy, kilo, pi, omp, continue-cli
#   npmb_*                                         qwen-code, copilot-cli, cline, cline-tasks
#
# Environment the setup_run drivers honour:
#   AGENT_VERSION   npm version or dist-tag to install (default: the version in manifest.json)
#   AGENT_PREFIX    an npm prefix that already holds the package (skips the install; reused as is)
#   KEEP_WORK=1     keep the temporary folder (agent.log, requests.jsonl) for a look afterwards
set -euo pipefail

LIB_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# The names the drv_* and npmb_* drivers know this folder by.
DRV_DIR=$LIB_DIR
HERE_B=$LIB_DIR

# fake_model_start SCRIPT LOG OUT: fakemodel.py on a free port of 127.0.0.1 (FAKE_PORT, FAKE_PID),
# scripted by SCRIPT, logging requests to LOG and its own output to OUT; 1 when it does not answer.
fake_model_start() {
	FAKE_PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
	FAKE_SCRIPT="$1" FAKE_LOG="$2" FAKE_PORT=$FAKE_PORT python3 "$LIB_DIR/fakemodel.py" >"$3" 2>&1 &
	FAKE_PID=$!
	for _ in $(seq 50); do
		python3 -c "import socket; socket.create_connection(('127.0.0.1',$FAKE_PORT),0.2)" 2>/dev/null && return 0
		sleep 0.1
	done
	echo "fake model server did not start (see $3): $(cat "$3")" >&2
	return 1
}

# manifest_json PATH ROOT REL AGENT PACKAGE VERSION SCENARIO...: PATH with the version, node, date,
# scenarios and the files under ROOT (named relative to REL).
manifest_json() {
	python3 - "$@" "$(node --version)" <<'EOF'
import json, os, sys, datetime
path, root, rel, agent, package, version, *scenarios, node = sys.argv[1:]
files = sorted(os.path.relpath(os.path.join(d, n), rel) for d, _, names in os.walk(root) for n in names)
doc = {"agent": agent, "package": package, "version": version, "node": node,
       "generated": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
       "scenarios": scenarios, "files": files}
with open(path, "w") as f:
    json.dump(doc, f, indent=2, ensure_ascii=False)
    f.write("\n")
EOF
}

# manifest_version DIR: the version recorded in DIR/manifest.json, or "latest" when there is none.
manifest_version() {
	python3 - "$1/manifest.json" <<'EOF' 2>/dev/null || echo latest
import json, sys
print(json.load(open(sys.argv[1]))["version"])
EOF
}

# setup_run PACKAGE VERSION NAME: a temporary WORK folder with HOME under it, the package installed in
# PREFIX (AGENT_VERSION_INSTALLED is what npm installed), and the fake model on FAKE_PORT.
setup_run() {
	local pkg=$1 version=$2
	WORK=$(mktemp -d "${TMPDIR:-/tmp}/agent-$3.XXXXXX")
	if [ "${KEEP_WORK:-}" != 1 ]; then
		trap 'stop_fake; rm -rf "$WORK"' EXIT
	else
		trap 'stop_fake; echo "work folder kept: $WORK" >&2' EXIT
	fi
	PREFIX=${AGENT_PREFIX:-$WORK/prefix}
	if [ -z "${AGENT_PREFIX:-}" ]; then
		echo "installing $pkg@$version ..." >&2
		npm install --prefix "$PREFIX" --no-audit --no-fund --loglevel=error "$pkg@$version" >&2
	fi
	AGENT_VERSION_INSTALLED=$(node -p "require('$PREFIX/node_modules/$pkg/package.json').version")
	echo "$pkg $AGENT_VERSION_INSTALLED" >&2
	export HOME="$WORK/home" XDG_CONFIG_HOME="$WORK/home/.config" XDG_DATA_HOME="$WORK/home/.local/share"
	mkdir -p "$HOME"
	SCENARIOS=()
	start_fake
}

# start_fake: the fake model, scripted by the driver's script.json.
start_fake() {
	fake_model_start "$HERE/script.json" "$WORK/requests.jsonl" "$WORK/fake.log" || exit 1
}

stop_fake() {
	if [ -n "${FAKE_PID:-}" ]; then kill "$FAKE_PID" 2>/dev/null || true; fi
}

# scenario TEXT: names the next scenario (manifest.json lists them).
scenario() {
	SCENARIOS+=("$1")
	echo "scenario: $1" >&2
}

# collect FROM TO PATH...: copies FROM/PATH (files or folders) to TO/PATH, replacing TO first, and
# rewrites the temporary folder's path to /fixture so the files do not depend on where they were made.
collect() {
	local from=$1 to=$2
	shift 2
	rm -rf "$to"
	mkdir -p "$to"
	for p in "$@"; do
		[ -e "$from/$p" ] || continue
		mkdir -p "$to/$(dirname "$p")"
		cp -a "$from/$p" "$to/$p"
	done
	python3 "$LIB_DIR/trim.py" "$to" "$WORK" /fixture
}

# write_manifest OUT AGENT PACKAGE: OUT/manifest.json with the version, node, date, scenarios and files.
write_manifest() {
	manifest_json "$1/manifest.json" "$1/home" "$1" "$2" "$3" "$AGENT_VERSION_INSTALLED" ${SCENARIOS[@]+"${SCENARIOS[@]}"}
}

# ---- drv_*: the drive.sh of opencode, opencode-legacy, kilo, pi, omp and continue-cli.
#
#   . "$(dirname "$0")/../lib.sh"
#   drv_init opencode opencode-ai 1.18.33 "$@"   # agent folder, npm package, default version, drive.sh args
#   drv_install                                   # npm install --prefix into $DRV_PKG (never global)
#   drv_fake_start                                # fakemodel.py on a free 127.0.0.1 port: $FAKE_URL
#   ... run the scenarios with HOME=$DRV_HOME, cwd under $DRV_HOME/work ...
#   drv_finish "scenario one" "scenario two"      # copy the files to $DRV_OUT/home, write manifest.json
#
# Environment: AGENT_VERSION (default the one given to drv_init; "latest" for the newest release),
# DRV_CACHE (a folder to keep installs in between runs; default a temporary folder).

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

# drv_fake_start starts the fake model with $DRV_SCRIPT (default script.json next to drive.sh); a
# server that does not answer is reported and the driver goes on.
drv_fake_start() {
	fake_model_start "${DRV_SCRIPT:-$DRV_DIR/$DRV_AGENT/script.json}" "$DRV_TMP/requests.jsonl" "$DRV_TMP/fake.log" || true
	DRV_FAKE_PID=$FAKE_PID
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
	manifest_json "$DRV_OUT/manifest.json" "$DRV_OUT/home" "$DRV_OUT" "$DRV_AGENT" "$DRV_PACKAGE" "$DRV_VERSION" "$@"
	echo "drive $DRV_AGENT $DRV_VERSION: $(find "$DRV_OUT/home" -type f | wc -l) files in $DRV_OUT/home"
}

# ---- npmb_*: the drive.sh of qwen-code, copilot-cli, cline and cline-tasks.
#
# A driver sets AGENT (folder name), PACKAGE (npm name) and DEFAULT_VERSION, sources this file,
# and calls:
#   npmb_setup "$@"            parse [OUT] (a fixture folder: OUT/manifest.json and OUT/home, as
#                              drift.sh expects; default the agent's own folder), pick the version
#                              (AGENT_VERSION, e.g. latest), make a fixed scratch folder
#   npmb_install               npm install --prefix into the scratch folder (never global);
#                              NPMB_CACHE=<folder> reuses an install made there before
#   npmb_fake                  start fakemodel.py on a free 127.0.0.1 port ($FAKE_URL)
#   npmb_manifest SCEN...      rewrite OUT/manifest.json with the files the driver copied into $HOME_OUT
# The agent runs with HOME=$SCRATCH/home, so it reads and writes nothing of the person's.
# The scratch folder has a fixed path so that the paths the agent records (cwd, project folders)
# are the same on every run.

npmb_setup() {
	AGENT_DIR="$HERE_B/$AGENT"
	OUT="${1:-$AGENT_DIR}"
	mkdir -p "$OUT"
	OUT="$(cd "$OUT" && pwd)"
	HOME_OUT="$OUT/home"
	VERSION="${AGENT_VERSION:-$DEFAULT_VERSION}"
	SCRATCH="/tmp/recall-drive-$AGENT"
	rm -rf "$SCRATCH/home" "$SCRATCH/requests.jsonl"
	mkdir -p "$SCRATCH/home" "$HOME_OUT"
	export HOME="$SCRATCH/home"
	export NO_UPDATE_NOTIFIER=1 NO_COLOR=1 CI=1 TERM=dumb
	unset XDG_CONFIG_HOME XDG_DATA_HOME XDG_STATE_HOME XDG_CACHE_HOME
}

npmb_install() {
	NPM_PREFIX="${NPMB_CACHE:-$SCRATCH/npm}"
	if [ ! -d "$NPM_PREFIX/node_modules/$PACKAGE" ] || [ "${AGENT_VERSION:-}" = latest ]; then
		npm install --prefix "$NPM_PREFIX" --no-audit --no-fund --loglevel=error "$PACKAGE@$VERSION" >&2
	fi
	VERSION="$(node -p "require('$NPM_PREFIX/node_modules/$PACKAGE/package.json').version")"
	BIN="$NPM_PREFIX/node_modules/.bin"
}

npmb_fake() {
	local rc=0
	fake_model_start "$AGENT_DIR/script.json" "$SCRATCH/requests.jsonl" "$SCRATCH/fake.out" || rc=1
	FAKE_URL="http://127.0.0.1:$FAKE_PORT"
	trap 'kill $FAKE_PID 2>/dev/null || true' EXIT
	return $rc
}

# npmb_manifest scenario... : the files under $HOME_OUT and the run's facts into OUT/manifest.json.
npmb_manifest() {
	manifest_json "$OUT/manifest.json" "$HOME_OUT" "$HOME_OUT" "$AGENT" "$PACKAGE" "$VERSION" "$@"
}
