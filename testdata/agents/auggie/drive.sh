#!/usr/bin/env bash
# Regenerates the Augment Auggie fixtures: @augmentcode/auggie in print mode (`auggie -p`) against
# fake_augment.py (beside this file), a scripted fake of the Augment API it calls (get-models,
# chat-stream...), named as its tenant in AUGMENT_SESSION_AUTH; each run in a loopback-only network
# namespace (../netns.sh). Usage: drive.sh [out-dir]  (AGENT_VERSION=latest for the newest release)
. "$(dirname "$0")/../lib.sh"
drv_init auggie @augmentcode/auggie 0.36.0 "$@"
drv_install
printf 'alpha\nbeta\ngamma\n' >"$DRV_WORK/notes.txt"
export AUGMENT_SESSION_AUTH='{"accessToken":"fake-token","tenantURL":"http://127.0.0.1:18766/","scopes":["email"]}'
export NETNS_FAKE=$DRV_DIR/auggie/fake_augment.py NETNS_PORT=18766
aug() { drv_run unshare -n "$DRV_DIR/netns.sh" "$DRV_DIR/auggie/script.json" "$DRV_TMP/requests.jsonl" auggie -p -m fake-model "$@"; }
aug "How do I reverse a slice in Go? Show code."
aug "Please count the lines in notes.txt"
aug "Read the missing config at /nonexistent/config.yaml"
aug "请用中文解释 Go 的切片"
aug --continue "再举一个例子"
DRV_KEEP_PATHS=".augment/sessions" drv_finish "Q&A with markdown, code and thinking" "launch-process tool with output" \
	"failing view tool" "Chinese text" "a second prompt with --continue"
