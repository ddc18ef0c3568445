#!/usr/bin/env bash
# Regenerates the Pi fixtures: @mariozechner/pi-coding-agent driven offline (`pi -p`) against
# fakemodel.py. Usage: drive.sh [out-dir]   (AGENT_VERSION=latest for the newest release; ../README.md)
# Sourced by ../omp/drive.sh with DRV_CLI=omp, DRV_CONF=.omp (Oh My Pi is a fork with the same files).
. "$(dirname "$0")/../lib.sh"
if [ -z "${DRV_CLI:-}" ]; then
	DRV_CLI=pi DRV_CONF=.pi
	drv_init pi @mariozechner/pi-coding-agent 0.73.1 "$@"
fi
drv_install
drv_fake_start
agent=$DRV_HOME/$DRV_CONF/agent
mkdir -p "$agent"
cat >"$agent/models.json" <<JSON
{"providers": {"fake": {"baseUrl": "$FAKE_URL", "api": "openai-completions", "apiKey": "fake-key",
  "compat": {"supportsDeveloperRole": false, "supportsReasoningEffort": false},
  "models": [{"id": "fake-model", "name": "Fake Model", "reasoning": true}]}}}
JSON
cp "$agent/models.json" "$agent/models.yml" # Oh My Pi reads models.yml (YAML: the JSON reads as it is)
cat >"$agent/settings.json" <<JSON
{"defaultProvider": "fake", "defaultModel": "fake-model", "defaultThinkingLevel": "medium"}
JSON
printf 'alpha\nbeta\ngamma\n' >"$DRV_WORK/notes.txt"
p() { drv_run "$DRV_CLI" --provider fake --model fake-model "$@"; }
p -p "How do I reverse a slice in Go? Show code."
p -p "Please count the lines in notes.txt"
p -p "Read the missing config at /nonexistent/config.yaml"
p -p "请用中文解释 Go 的切片"
p -c -p "And in Python?"
sessions=$DRV_HOME/$DRV_CONF/agent/sessions
chinese=$(grep -l '用中文' -r "$sessions" | head -1)
(cd "$DRV_WORK" && HOME=$DRV_HOME PATH=$DRV_BIN_DIR:$PATH timeout 120 node "$DRV_DIR/pi/branch.mjs" \
	"$DRV_PKG/node_modules/$DRV_PACKAGE" "$chinese" "And in Rust?") >>"$DRV_TMP/agent.log" 2>&1 ||
	echo "drive $DRV_AGENT: in-place branch failed" >&2
first=$(grep -l 'reverse a slice' -r "$sessions" | head -1)
p --fork "$first" -p "Try another way"
DRV_KEEP_PATHS="$DRV_CONF/agent/sessions" \
	drv_finish "Q&A with markdown, code and thinking" "bash tool with output" "failing read tool" \
	"Chinese text" "resume with -c" "in-place branch (SessionManager.branch, as /tree)" "fork with --fork (new file, parentSession)"
