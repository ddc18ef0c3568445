#!/usr/bin/env bash
# Regenerates the Cline CLI fixtures: cline "<prompt>" (one task, auto-approve) against fakemodel.py
# through its openai-compatible provider (cline auth -p openai -b URL), HOME isolated. Usage: drive.sh [OUT] (a fixture folder: OUT/home, OUT/manifest.json)
AGENT=cline PACKAGE=cline DEFAULT_VERSION=3.0.65
source "$(dirname "$0")/../lib.sh"
npmb_setup "$@"
npmb_install
export CLINE_NO_AUTO_UPDATE=1
npmb_fake

PROJ="$HOME/demo"
mkdir -p "$PROJ"
echo "hello world" >"$PROJ/hello.txt"
"$BIN/cline" auth -p openai -k sk-fake -m fake-model -b "$FAKE_URL/v1" >>"$SCRATCH/cline.out" 2>&1
cline() {
	(cd "$PROJ" && "$BIN/cline" "$@" </dev/null >>"$SCRATCH/cline.out" 2>&1)
}
# resume_in_tmux ID TEXT EXPECT: open session ID in cline's UI, type TEXT once the UI is up, wait for
# EXPECT on the screen, quit.
resume_in_tmux() {
	local sock="recall-drive-cline-$$"
	tmux -L "$sock" new-session -d -s cline -x 150 -y 40 "cd '$PROJ' && HOME='$HOME' '$BIN/cline' --id '$1'"
	wait_screen "$sock" "Ask anything" 120
	tmux -L "$sock" send-keys -t cline -l "$2"
	sleep 1
	tmux -L "$sock" send-keys -t cline Enter
	wait_screen "$sock" "$3" 60
	sleep 2
	tmux -L "$sock" send-keys -t cline C-c
	sleep 1
	tmux -L "$sock" send-keys -t cline C-c
	sleep 3
	tmux -L "$sock" kill-server 2>/dev/null || true
}
wait_screen() {
	for _ in $(seq "$3"); do
		tmux -L "$1" capture-pane -p -t cline 2>/dev/null | grep -q "$2" && return 0
		sleep 1
	done
	echo "cline's UI never showed \"$2\"" >&2
	return 1
}
sessions() { ls "$HOME/.cline/data/sessions" 2>/dev/null | sort; }
cline --thinking low "Reverse a string in Go, as markdown with a code block"
cline "List the files here, then read missing.txt"
before="$(sessions)"
cline "用中文解释 Go 的并发"
zh="$(comm -13 <(echo "$before") <(sessions) | head -1)"
# cline --id resumes only in its interactive UI (with a prompt and no TTY it stops: "interactive mode
# requires a TTY"), so the follow-up is typed into it in tmux.
resume_in_tmux "$zh" "再举一个例子" "另一个例子"
cline "Delegate counting the words of hello.txt to a sub-agent"

rm -rf "$HOME_OUT/.cline"
mkdir -p "$HOME_OUT/.cline/data"
cp -r "$HOME/.cline/data/sessions" "$HOME_OUT/.cline/data/"
npmb_manifest "markdown+code Q&A with --thinking" "run_commands with output, failing read_files" \
	"Chinese text" "resume (--id) of the Chinese session" "sub-agent (spawn_agent)"
