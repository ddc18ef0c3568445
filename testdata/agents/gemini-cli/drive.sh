#!/usr/bin/env bash
# Regenerates the Gemini CLI fixtures: installs @google/gemini-cli from npm into a temporary prefix,
# runs it headless against ../fakemodel.py on 127.0.0.1 with an isolated HOME, and copies the chat
# recordings it wrote into OUT/home (default: this folder). README.md in the parent folder says more.
#
#   drive.sh [OUT]        AGENT_VERSION=latest drive.sh /tmp/out     RECALL=/path/to/recall (MCP scenario)
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../lib.sh"
OUT=${1:-$HERE}
PKG=@google/gemini-cli
VERSION=${AGENT_VERSION:-$(manifest_version "$HERE")}

setup_run "$PKG" "$VERSION" gemini
BIN="$PREFIX/node_modules/.bin/gemini"
PROJECT="$WORK/project"
mkdir -p "$PROJECT" "$HOME/.gemini"
echo "remember the quokka" > "$PROJECT/notes.txt"
mcp=""
if [ -n "${RECALL:-}" ]; then
	# "trust": true lets headless Gemini call the server's tools without asking.
	mcp=',"mcpServers":{"recall":{"command":"'"$RECALL"'","args":["mcp","--db","'"$WORK/recall.db"'"],"trust":true}}'
	mkdir -p "$WORK/empty"
	"$RECALL" --db "$WORK/recall.db" import gemini "$WORK/empty" >/dev/null # creates the database it serves
fi
# Session cleanup is off: at startup 0.61 deletes, as corrupt, every file of a chat resumed more than once
# (its rewritten message list repeats ids), which would delete the resume scenario.
cat > "$HOME/.gemini/settings.json" <<EOF
{"security":{"auth":{"selectedType":"gemini-api-key"}},"general":{"enableAutoUpdate":false,"sessionRetention":{"enabled":false}},
 "privacy":{"usageStatisticsEnabled":false},"telemetry":{"enabled":false}$mcp}
EOF
export GOOGLE_GEMINI_BASE_URL="http://127.0.0.1:$FAKE_PORT" GEMINI_API_KEY=fake GEMINI_CLI_TRUST_WORKSPACE=true

g() { (cd "$PROJECT" && timeout 120 "$BIN" --model gemini-2.5-flash --yolo "$@" </dev/null >>"$WORK/agent.log" 2>&1) || echo "gemini $* failed (see $WORK/agent.log)" >&2; }
scenario "tools: thinking, list_directory and read_file in one turn"
g -p "List the files in this project and read them."
scenario "resume: a second prompt in the same chat, which rewrites the recording"
g --resume latest -p "Run echo recall-fixture in the shell."
scenario "resume again: a question about the earlier answer"
g --resume latest -p "So what did notes.txt say?"
scenario "Chinese"
g -p "用中文告诉我这个项目里有什么文件。"
if [ -n "${RECALL:-}" ]; then
	scenario "MCP: a call to recall mcp's session_search"
	g -p "Search recall for the quokka."
fi

collect "$HOME" "$OUT/home" .gemini/tmp .gemini/projects.json
write_manifest "$OUT" gemini-cli "$PKG"
