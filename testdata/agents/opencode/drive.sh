#!/usr/bin/env bash
# Regenerates the OpenCode fixtures: opencode-ai driven offline (`opencode run`) against fakemodel.py.
# Usage: drive.sh [out-dir]   (AGENT_VERSION=latest for the newest release; see ../README.md)
# Sourced by ../kilo/drive.sh with DRV_CLI=kilo (Kilo CLI is a fork with the same commands).
. "$(dirname "$0")/../lib.sh"
if [ -z "${DRV_CLI:-}" ]; then
	DRV_CLI=opencode
	drv_init opencode opencode-ai 1.18.33 "$@"
fi
drv_install
drv_fake_start
cfgdir=$DRV_HOME/.config/$DRV_CLI
mkdir -p "$cfgdir"
cat >"$cfgdir/$DRV_CLI.json" <<JSON
{
  "\$schema": "https://opencode.ai/config.json",
  "autoupdate": false,
  "share": "disabled",
  "model": "fake/fake-model",
  "small_model": "fake/fake-model",
  "permission": {"edit": "allow", "bash": "allow", "webfetch": "allow", "external_directory": "allow"},
  "provider": {"fake": {"npm": "@ai-sdk/openai-compatible", "name": "Fake",
    "options": {"baseURL": "$FAKE_URL", "apiKey": "fake-key"},
    "models": {"fake-model": {"name": "Fake Model", "reasoning": true, "tool_call": true}}}}
}
JSON
printf 'alpha\nbeta\ngamma\n' >"$DRV_WORK/notes.txt"
printf 'package main\n\n// TODO: handle errors\nfunc main() {}\n' >"$DRV_WORK/main.go"
export OPENCODE_DISABLE_MODELS_FETCH=1 OPENCODE_DISABLE_AUTOUPDATE=1 OPENCODE_DISABLE_LSP_DOWNLOAD=1 \
	KILO_DISABLE_MODELS_FETCH=1 KILO_DISABLE_AUTOUPDATE=1 KILO_DISABLE_LSP_DOWNLOAD=1
# --auto appeared after 1.1 (the config allows the tools anyway).
oc() { drv_run "$DRV_CLI" run ${DRV_OC_FLAGS---auto} "$@"; }
oc "How do I reverse a slice in Go? Show code."
oc "Please count the lines in notes.txt"
oc "Read the missing config at /nonexistent/config.yaml"
oc "请用中文解释 Go 的切片"
oc --continue "And in Python?"
oc "Delegate: find the TODOs with a sub-agent"
first=$(cd "$DRV_WORK" && HOME=$DRV_HOME XDG_DATA_HOME=$DRV_HOME/.local/share XDG_CONFIG_HOME=$DRV_HOME/.config \
	"$DRV_BIN_DIR/$DRV_CLI" session list --format json 2>/dev/null |
	python3 -c 'import json,sys; s=json.load(sys.stdin); print(min(s, key=lambda x: x["created"])["id"])' 2>/dev/null || true)
[ -n "$first" ] && oc --session "$first" --fork "Try another way"
data=.local/share/$DRV_CLI
DRV_KEEP_PATHS="$data/$DRV_CLI.db $data/$DRV_CLI.db-wal $data/$DRV_CLI.db-shm $data/storage" \
	drv_finish "Q&A with markdown, code and thinking" "bash tool with output" "failing read tool" \
	"Chinese text" "resume with --continue" "task sub-agent (child session)" "fork with --session --fork"
