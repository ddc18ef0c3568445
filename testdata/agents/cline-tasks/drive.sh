#!/usr/bin/env bash
# Regenerates the fixtures of Cline's task format (tasks/<id>/api_conversation_history.json, the shape the
# VS Code extension, Roo Code and the old Kilo extension keep) with Cline CLI 2.x, which still writes it:
# cline -y "<prompt>" against fakemodel.py (FAKE_MAIN=always: Cline 2 describes its XML tools in the system
# prompt and sends none), HOME isolated. Usage: drive.sh [OUT] (a fixture folder: OUT/home, OUT/manifest.json)
AGENT=cline-tasks PACKAGE=cline DEFAULT_VERSION=2.18.0
source "$(dirname "$0")/../lib.sh"
npmb_setup "$@"
npmb_install
export FAKE_MAIN=always CLINE_NO_AUTO_UPDATE=1 # it would otherwise npm install -g cline@latest
npmb_fake

PROJ="$HOME/demo"
mkdir -p "$PROJ"
echo "hello world" >"$PROJ/hello.txt"
"$BIN/cline" auth -p openai -k sk-fake -m fake-model -b "$FAKE_URL/v1" </dev/null >>"$SCRATCH/cline.out" 2>&1
cline() {
	(cd "$PROJ" && "$BIN/cline" -y "$@" </dev/null >>"$SCRATCH/cline.out" 2>&1)
}
cline "Reverse a string in Go, as markdown with a code block"
cline "List the files here, then read missing.txt"
cline "用中文解释 Go 的并发"

rm -rf "$HOME_OUT/.cline"
mkdir -p "$HOME_OUT/.cline/data/state"
cp -r "$HOME/.cline/data/tasks" "$HOME_OUT/.cline/data/"
cp "$HOME/.cline/data/state/taskHistory.json" "$HOME_OUT/.cline/data/state/"
npmb_manifest "markdown+code Q&A with thinking" "execute_command with output, failing read_file" "Chinese text"
