#!/usr/bin/env bash
# Regenerates the Qwen Code fixtures: qwen in headless mode (positional prompt) against fakemodel.py
# through its OpenAI-compatible provider, with HOME isolated. Usage: drive.sh [OUT] (a fixture folder: OUT/home, OUT/manifest.json)
AGENT=qwen-code PACKAGE=@qwen-code/qwen-code DEFAULT_VERSION=0.24.4
source "$(dirname "$0")/../lib.sh"
npmb_setup "$@"
npmb_install
npmb_fake

PROJ="$HOME/demo"
mkdir -p "$PROJ"
echo "hello world" >"$PROJ/hello.txt"
export QWEN_CODE_SUPPRESS_YOLO_WARNING=1
qwen() {
	(cd "$PROJ" && "$BIN/qwen" --auth-type openai --openai-api-key sk-fake --openai-base-url "$FAKE_URL/v1" \
		-m fake-model --yolo "$@" </dev/null >>"$SCRATCH/qwen.out" 2>&1)
}
S1=11111111-1111-4111-8111-111111111111
S2=22222222-2222-4222-8222-222222222222
S3=33333333-3333-4333-8333-333333333333
S4=44444444-4444-4444-8444-444444444444
qwen --session-id $S1 "Reverse a string in Go, as markdown with a code block"
qwen --session-id $S2 "List the files here, then read missing.txt"
qwen --session-id $S3 "用中文解释 Go 的并发"
qwen --resume $S3 "再举一个例子"
qwen --session-id $S4 "Delegate counting the words of hello.txt to a sub-agent"

rm -rf "$HOME_OUT/.qwen"
mkdir -p "$HOME_OUT/.qwen"
(cd "$HOME/.qwen" && find projects -path '*/chats/*.jsonl' -o -path '*/subagents/*' -type f | while read -r f; do
	mkdir -p "$HOME_OUT/.qwen/$(dirname "$f")" && cp "$f" "$HOME_OUT/.qwen/$f"
done)
npmb_manifest "markdown+code Q&A with thinking" "shell tool with output, failing read_file" \
	"Chinese text" "resume (--resume) of the Chinese session" "sub-agent (agent tool)"
