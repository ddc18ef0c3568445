#!/usr/bin/env bash
# Regenerates the CodeBuddy Code fixtures: installs @tencent-ai/agent-sdk from npm (the SDK ships the
# CodeBuddy Code CLI, cli/bin/codebuddy) into a temporary prefix, runs it in print mode against
# ../fakemodel.py on 127.0.0.1 (CODEBUDDY_BASE_URL + CODEBUDDY_API_KEY: the documented custom endpoint,
# which it speaks OpenAI chat completions to) with an isolated HOME, and copies the transcripts it wrote
# (~/.codebuddy/projects) into OUT/home (default: this folder). README.md in the parent folder says more.
# Telemetry, error reports and updates are off (docs env-vars.md); run it in a network namespace with only
# loopback (unshare -n, ip link set lo up; AGENT_PREFIX=an npm prefix installed beforehand) to be sure.
# The SDK ships the headless build only (no cli/dist/codebuddy): the interactive UI's records
# (custom-title from /rename, ai-title) cannot be driven from it, and are tested from their source.
#
#   drive.sh [OUT]        AGENT_VERSION=latest drive.sh /tmp/out
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../lib.sh"
OUT=${1:-$HERE}
PKG=@tencent-ai/agent-sdk
VERSION=${AGENT_VERSION:-$(manifest_version "$HERE")}

setup_run "$PKG" "$VERSION" codebuddy
BIN="$PREFIX/node_modules/$PKG/cli/bin/codebuddy"
CLI_VERSION=$(node -p "require('$PREFIX/node_modules/$PKG/cli/package.json').version")
echo "CodeBuddy Code $CLI_VERSION" >&2
# The project folder's path is part of the transcript's folder name: a fixed one, the same in every run.
PROJECT=/tmp/drv-codebuddy/home/work/demo
rm -rf /tmp/drv-codebuddy
mkdir -p "$PROJECT"
echo "remember the quokka" > "$PROJECT/notes.txt"
export CODEBUDDY_BASE_URL="http://127.0.0.1:$FAKE_PORT" CODEBUDDY_API_KEY=fake CODEBUDDY_MODEL=fake-model \
	CODEBUDDY_SMALL_FAST_MODEL=fake-model CODEBUDDY_BIG_SLOW_MODEL=fake-model NO_COLOR=1 \
	DISABLE_TELEMETRY=1 DISABLE_ERROR_REPORTING=1 DISABLE_AUTOUPDATER=1 \
	HTTP_PROXY= HTTPS_PROXY= http_proxy= https_proxy= NO_PROXY=127.0.0.1,localhost

c() { (cd "$PROJECT" && timeout 180 "$BIN" --dangerously-skip-permissions --output-format stream-json --verbose "$@" \
	</dev/null >>"$WORK/agent.log" 2>&1) || echo "codebuddy $* failed (see $WORK/agent.log)" >&2; }
sid() { python3 - "$HOME/.codebuddy/projects" <<'PY'
import os, sys
files = [os.path.join(d, n) for d, _, ns in os.walk(sys.argv[1]) for n in ns if n.endswith(".jsonl")]
print(os.path.basename(max(files, key=os.path.getmtime))[:-6])
PY
}
scenario "tools: thinking and Bash in one turn"
c -p "List the files in this project."
scenario "continue: a failing Read in the same session"
c --continue -p "Read missing.txt please."
scenario "a sub-agent (Agent tool) that runs Grep"
c -p "Delegate the search for the quokka to a sub-agent."
scenario "Chinese, then resumed by id (--resume)"
c -p "用中文告诉我这个项目里有什么文件。"
c --resume "$(sid)" -p "and the second line of notes.txt?"

collect "$HOME" "$OUT/home" .codebuddy/projects
# The project's path, in the records and in its folder's name (CodeBuddy's slug has no leading -).
python3 "$LIB_DIR/trim.py" "$OUT/home" /tmp/drv-codebuddy /fixture
for d in "$OUT"/home/.codebuddy/projects/tmp-drv-codebuddy-*; do
	[ -e "$d" ] && mv "$d" "$OUT/home/.codebuddy/projects/fixture-${d##*/tmp-drv-codebuddy-}"
done
write_manifest "$OUT" codebuddy "$PKG"
python3 - "$OUT/manifest.json" "$CLI_VERSION" <<'PY'
import json, sys
path, cli = sys.argv[1:]
m = json.load(open(path))
m["cli"] = "@tencent-ai/codebuddy-code " + cli  # what cli/package.json inside the SDK says
json.dump(m, open(path, "w"), indent=2, ensure_ascii=False)
open(path, "a").write("\n")
PY
