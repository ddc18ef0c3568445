# Shared by the drive.sh of qwen-code, copilot-cli and cline (sourced, not run).
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

set -euo pipefail

HERE_B="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

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
	FAKE_PORT="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
	FAKE_URL="http://127.0.0.1:$FAKE_PORT"
	FAKE_PORT="$FAKE_PORT" FAKE_SCRIPT="$AGENT_DIR/script.json" FAKE_LOG="$SCRATCH/requests.jsonl" \
		python3 "$HERE_B/fakemodel.py" >"$SCRATCH/fake.out" 2>&1 &
	FAKE_PID=$!
	trap 'kill $FAKE_PID 2>/dev/null || true' EXIT
	for _ in $(seq 50); do
		grep -q "fake model server" "$SCRATCH/fake.out" 2>/dev/null && return 0
		sleep 0.1
	done
	echo "fakemodel.py did not start: $(cat "$SCRATCH/fake.out")" >&2
	return 1
}

# npmb_manifest scenario... : the files under $HOME_OUT and the run's facts into OUT/manifest.json.
npmb_manifest() {
	python3 - "$OUT/manifest.json" "$HOME_OUT" "$AGENT" "$PACKAGE" "$VERSION" "$(node --version)" "$@" <<'PY'
import json, os, sys, datetime
path, out, agent, package, version, node, *scen = sys.argv[1:]
files = sorted(os.path.relpath(os.path.join(d, f), out) for d, _, fs in os.walk(out) for f in fs)
json.dump({"agent": agent, "package": package, "version": version, "node": node,
           "generated": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
           "scenarios": scen, "files": files}, open(path, "w"), indent=2, ensure_ascii=False)
open(path, "a").write("\n")
PY
}
