# Shared by the drivers (<agent>/drive.sh): install an agent into a temporary prefix, start the fake
# model server, isolate HOME, copy what the agent wrote, and write manifest.json. Sourced, not run.
#
# Environment a driver honours:
#   AGENT_VERSION   npm version or dist-tag to install (default: the version in manifest.json)
#   AGENT_PREFIX    an npm prefix that already holds the package (skips the install; reused as is)
#   KEEP_WORK=1     keep the temporary folder (agent.log, requests.jsonl) for a look afterwards

LIB_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

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

# start_fake: fakemodel.py on a free port of 127.0.0.1, scripted by the driver's script.json.
start_fake() {
	FAKE_PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
	FAKE_SCRIPT="$HERE/script.json" FAKE_LOG="$WORK/requests.jsonl" FAKE_PORT=$FAKE_PORT \
		python3 "$LIB_DIR/fakemodel.py" >"$WORK/fake.log" 2>&1 &
	FAKE_PID=$!
	for _ in $(seq 50); do
		python3 -c "import socket; socket.create_connection(('127.0.0.1',$FAKE_PORT),0.2)" 2>/dev/null && return
		sleep 0.1
	done
	echo "fake model server did not start (see $WORK/fake.log)" >&2
	exit 1
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
	local out=$1 agent=$2 pkg=$3
	python3 - "$out" "$agent" "$pkg" "$AGENT_VERSION_INSTALLED" "$(node --version)" "${SCENARIOS[@]}" <<'EOF'
import json, os, sys, datetime
out, agent, pkg, version, node = sys.argv[1:6]
files = []
for root, _, names in os.walk(os.path.join(out, "home")):
    for n in names:
        files.append(os.path.relpath(os.path.join(root, n), out))
doc = {"agent": agent, "package": pkg, "version": version, "node": node,
       "generated": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
       "scenarios": sys.argv[6:], "files": sorted(files)}
with open(os.path.join(out, "manifest.json"), "w") as f:
    json.dump(doc, f, indent=2, ensure_ascii=False)
    f.write("\n")
EOF
}
