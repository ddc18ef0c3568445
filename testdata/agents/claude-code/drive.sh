#!/usr/bin/env bash
# Regenerates the Claude Code fixtures: installs @anthropic-ai/claude-code from npm into a temporary
# prefix, runs it in print mode against ../fakemodel.py on 127.0.0.1 with an isolated HOME, and copies
# the transcripts it wrote into OUT/home (default: this folder). README.md in the parent folder says more.
#
#   drive.sh [OUT]        AGENT_VERSION=latest drive.sh /tmp/out     RECALL=/path/to/recall (MCP scenario)
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../lib.sh"
OUT=${1:-$HERE}
PKG=@anthropic-ai/claude-code
VERSION=${AGENT_VERSION:-$(manifest_version "$HERE")}

setup_run "$PKG" "$VERSION" claude
BIN="$PREFIX/node_modules/.bin/claude"
PROJECT="$WORK/project"
mkdir -p "$PROJECT/.claude/commands"
echo "remember the quokka" > "$PROJECT/notes.txt"
printf -- '---\ndescription: Greet someone\n---\nSay hello to $ARGUMENTS.\n' > "$PROJECT/.claude/commands/greet.md"
export ANTHROPIC_BASE_URL="http://127.0.0.1:$FAKE_PORT" ANTHROPIC_API_KEY=fake DISABLE_TELEMETRY=1 \
	DISABLE_AUTOUPDATER=1 CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 IS_SANDBOX=1
mcp=()
if [ -n "${RECALL:-}" ]; then
	mkdir -p "$WORK/empty"
	"$RECALL" --db "$WORK/recall.db" import claude "$WORK/empty" >/dev/null # creates the database it serves
	echo '{"mcpServers":{"recall":{"command":"'"$RECALL"'","args":["mcp","--db","'"$WORK/recall.db"'"]}}}' >"$WORK/mcp.json"
	mcp=(--mcp-config "$WORK/mcp.json")
fi

c() { (cd "$PROJECT" && timeout 180 "$BIN" --model claude-sonnet-4-5 --dangerously-skip-permissions \
	--output-format stream-json --verbose "${mcp[@]}" "$@" </dev/null >>"$WORK/agent.log" 2>&1) ||
	echo "claude $* failed (see $WORK/agent.log)" >&2; }
scenario "tools: thinking and Bash in one turn"
c -p "List the files in this project."
scenario "continue: a sub-agent (Agent tool) that runs Grep, its completion notification"
c --continue -p "Delegate the search for the quokka to a sub-agent."
scenario "custom slash command /greet Alice (starts a session)"
c -p "/greet Alice"
scenario "Chinese"
c -p "用中文告诉我这个项目里有什么文件。"
if [ -n "${RECALL:-}" ]; then
	scenario "MCP: a call to recall mcp's session_search (through ToolSearch when deferred)"
	c -p "Search recall for the quokka."
fi

collect "$HOME" "$OUT/home" .claude/projects
write_manifest "$OUT" claude-code "$PKG"
