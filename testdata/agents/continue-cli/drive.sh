#!/usr/bin/env bash
# Regenerates the Continue CLI fixtures: @continuedev/cli driven offline (`cn -p`) against fakemodel.py.
# Usage: drive.sh [out-dir]   (AGENT_VERSION=latest for the newest release; see ../README.md)
. "$(dirname "$0")/../lib.sh"
drv_init continue-cli @continuedev/cli 1.5.47 "$@"
drv_install
drv_fake_start
mkdir -p "$DRV_HOME/.continue"
cfg=$DRV_HOME/.continue/config.yaml
cat >"$cfg" <<YAML
name: fake
version: 1.0.0
schema: v1
models:
  - name: Fake Model
    provider: openai
    model: fake-model
    apiBase: $FAKE_URL
    apiKey: fake-key
    roles: [chat, edit, apply]
YAML
printf 'alpha\nbeta\ngamma\n' >"$DRV_WORK/notes.txt"
export CONTINUE_USE_BEDROCK=0 CONTINUE_CLI_DISABLE_TELEMETRY=1 CONTINUE_TELEMETRY_ENABLED=0
c() { drv_run cn --config "$cfg" --auto "$@"; }
c -p "How do I reverse a slice in Go? Show code."
c -p "Please count the lines in notes.txt"
c -p "Read the missing config at /nonexistent/config.yaml"
c -p "请用中文解释 Go 的切片"
c --resume -p "And in Python?"
first=$(grep -l 'reverse a slice' "$DRV_HOME"/.continue/sessions/*.json | grep -v sessions.json | head -1)
c --fork "$(basename "$first" .json)" -p "Try another way"
DRV_KEEP_PATHS=".continue/sessions" \
	drv_finish "Q&A with markdown, code and thinking" "Bash tool with output" "failing Read tool" \
	"Chinese text" "resume with --resume" "fork with --fork"
