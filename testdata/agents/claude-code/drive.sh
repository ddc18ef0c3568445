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

if command -v tmux >/dev/null; then
	# What only the interactive TUI writes: slash commands as local_command records, the custom-title,
	# text typed while a tool runs (queue-operation enqueue/remove). ~/.claude.json skips onboarding;
	# the API-key and bypass-permissions dialogs are answered with the keys a person would press.
	python3 - "$HOME/.claude.json" "$PROJECT" <<'PY'
import json, sys
path, project = sys.argv[1:3]
try:
    cfg = json.load(open(path))
except (OSError, ValueError):
    cfg = {}
cfg.update({"hasCompletedOnboarding": True, "theme": "dark", "numStartups": 5})
cfg.setdefault("projects", {})[project] = {"hasTrustDialogAccepted": True, "hasCompletedProjectOnboarding": True}
json.dump(cfg, open(path, "w"))
PY
	S=recall-fixture-$$
	tmux new-session -d -s "$S" -x 150 -y 45 "cd '$PROJECT' && env HOME='$HOME' ANTHROPIC_BASE_URL='$ANTHROPIC_BASE_URL' \
		ANTHROPIC_API_KEY=fake DISABLE_TELEMETRY=1 DISABLE_AUTOUPDATER=1 CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 \
		IS_SANDBOX=1 '$BIN' --model claude-sonnet-4-5 --dangerously-skip-permissions"
	type_line() { tmux send-keys -t "$S" -l "$1"; sleep 0.5; tmux send-keys -t "$S" Enter; }
	screen() { tmux capture-pane -t "$S" -p; }
	wait_for() { for _ in $(seq 60); do screen | grep -q "$1" && return 0; sleep 0.5; done; echo "TUI: no '$1'" >&2; }
	sleep 8
	if screen | grep -q "Do you want to use this API key"; then tmux send-keys -t "$S" Up; sleep 0.5; tmux send-keys -t "$S" Enter; sleep 3; fi
	if screen | grep -q "Yes, I accept"; then tmux send-keys -t "$S" Down; sleep 0.5; tmux send-keys -t "$S" Enter; sleep 4; fi
	scenario "TUI: a prompt with thinking and Bash"
	type_line "List the files in this project."; wait_for "holds notes.txt"
	scenario "TUI: /rename (custom-title, local_command command and output) and /context"
	type_line "/rename Quokka hunt"; wait_for "Session renamed"
	type_line "/context"; sleep 4
	scenario "TUI: text typed while a tool runs (queue-operation enqueue, remove)"
	type_line "Run the slow check."; sleep 3
	type_line "also mention the quokka"; wait_for "check passed"
	type_line "/exit"; sleep 3
	tmux kill-session -t "$S" 2>/dev/null || true
fi

collect "$HOME" "$OUT/home" .claude/projects
write_manifest "$OUT" claude-code "$PKG"
