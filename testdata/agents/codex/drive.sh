#!/usr/bin/env bash
# Regenerates the Codex CLI fixtures: installs @openai/codex from npm into a temporary prefix, runs
# `codex exec` (new, resume, fork) against ../fakemodel.py (OpenAI Responses) on 127.0.0.1 with an
# isolated HOME, and copies the rollouts it wrote into OUT/home (default: this folder).
# README.md in the parent folder says more.
#
#   drive.sh [OUT]        AGENT_VERSION=latest drive.sh /tmp/out     RECALL=/path/to/recall (MCP scenario)
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../lib.sh"
OUT=${1:-$HERE}
PKG=@openai/codex
VERSION=${AGENT_VERSION:-$(manifest_version "$HERE")}

setup_run "$PKG" "$VERSION" codex
BIN="$PREFIX/node_modules/.bin/codex"
PROJECT="$WORK/project"
mkdir -p "$PROJECT" "$HOME/.codex"
echo "remember the quokka" > "$PROJECT/notes.txt"
# A known model name (gpt-5.5) so that Codex offers its usual tools; a custom provider speaking the
# Responses API to the fake.
cat > "$HOME/.codex/config.toml" <<TOML
model = "gpt-5.5"
model_provider = "fake"
check_for_update_on_startup = false
[model_providers.fake]
name = "fake"
base_url = "http://127.0.0.1:$FAKE_PORT/v1"
wire_api = "responses"
env_key = "FAKE_API_KEY"
[analytics]
enabled = false
TOML
if [ -n "${RECALL:-}" ]; then
	mkdir -p "$WORK/empty"
	"$RECALL" --db "$WORK/recall.db" import codex "$WORK/empty" >/dev/null # creates the database it serves
	cat >> "$HOME/.codex/config.toml" <<TOML
[mcp_servers.recall]
command = "$RECALL"
args = ["mcp", "--db", "$WORK/recall.db"]
TOML
fi
export FAKE_API_KEY=fake CODEX_HOME="$HOME/.codex"

x() { (cd "$PROJECT" && timeout 180 "$BIN" exec --skip-git-repo-check --dangerously-bypass-approvals-and-sandbox "$@" \
	</dev/null >>"$WORK/agent.log" 2>&1) || echo "codex exec $* failed (see $WORK/agent.log)" >&2; }
first_id() { ls "$HOME/.codex/sessions"/*/*/*/rollout-*.jsonl | head -1 | grep -oE '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}'; }
scenario "tools: reasoning and shell_command in one turn"
x "List the files in this project."
scenario "resume --last: a second prompt in the same rollout"
x resume --last "What did notes.txt say?"
scenario "fork: a new rollout with forked_from_id and its own prompt"
x fork "$(first_id)" "Fork: where is the quokka?"
scenario "Chinese"
x "用中文告诉我这个项目里有什么文件。"
if [ -n "${RECALL:-}" ]; then
	scenario "MCP: a call to recall mcp's session_search"
	x "Search recall for the quokka."
fi

collect "$HOME" "$OUT/home" .codex/sessions .codex/session_index.jsonl .codex/history.jsonl
write_manifest "$OUT" codex "$PKG"
