#!/usr/bin/env bash
# Regenerates the Copilot CLI fixtures: copilot -p (prompt mode) in offline mode (COPILOT_OFFLINE) with
# a BYOK OpenAI-compatible provider (COPILOT_PROVIDER_BASE_URL) pointing at fakemodel.py, HOME isolated.
# No GitHub sign-in is needed. Usage: drive.sh [OUT] (a fixture folder: OUT/home, OUT/manifest.json)
AGENT=copilot-cli PACKAGE=@github/copilot DEFAULT_VERSION=1.0.102
source "$(dirname "$0")/../lib.sh"
npmb_setup "$@"
npmb_install
npmb_fake

PROJ="$HOME/demo"
mkdir -p "$PROJ"
echo "hello world" >"$PROJ/hello.txt"
export COPILOT_OFFLINE=true COPILOT_PROVIDER_BASE_URL="$FAKE_URL/v1" COPILOT_PROVIDER_API_KEY=sk-fake \
	COPILOT_MODEL=fake-model COPILOT_ALLOW_ALL=true COPILOT_AUTO_UPDATE=false
copilot() {
	(cd "$PROJ" && "$BIN/copilot" --allow-all-tools "$@" </dev/null >>"$SCRATCH/copilot.out" 2>&1)
}
S1=11111111-1111-4111-8111-111111111111
S2=22222222-2222-4222-8222-222222222222
S3=33333333-3333-4333-8333-333333333333
S4=44444444-4444-4444-8444-444444444444
copilot --session-id $S1 -p "Reverse a string in Go, as markdown with a code block"
copilot --session-id $S2 -p "List the files here, then read missing.txt"
copilot --session-id $S3 -p "用中文解释 Go 的并发"
copilot --resume=$S3 -p "再举一个例子"
copilot --session-id $S4 -p "Delegate counting the words of hello.txt to a sub-agent"

rm -rf "$HOME_OUT/.copilot"
mkdir -p "$HOME_OUT/.copilot"
(cd "$HOME/.copilot" && find session-state -name events.jsonl -o -name workspace.yaml | while read -r f; do
	mkdir -p "$HOME_OUT/.copilot/$(dirname "$f")" && cp "$f" "$HOME_OUT/.copilot/$f"
done)
npmb_manifest "markdown+code Q&A with reasoning" "bash tool with output, failing view" \
	"Chinese text" "resume (--resume=ID) of the Chinese session" "sub-agent (task tool)"
