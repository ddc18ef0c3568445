#!/usr/bin/env bash
# The drift check: for each agent (every folder here with a drive.sh when none is named), install its
# newest release, regenerate its fixtures into a temporary folder, import them with recall, and report
# the version, the record kinds and fields the committed fixtures do not have, and what recall skipped or
# could not parse. A new agent release is caught in minutes:
#
#   testdata/agents/drift.sh                    # every agent
#   testdata/agents/drift.sh codex gemini-cli   # some
#   AGENT_VERSION=0.172.0 testdata/agents/drift.sh codex   # a given version instead of the newest
#
# Exit status 0 when nothing drifted, 1 when some agent writes kinds or fields the fixtures lack or
# recall reported malformed records, 2 when a driver failed. KEEP=1 keeps the temporary folder.
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
OUT=$(mktemp -d "${TMPDIR:-/tmp}/recall-drift.XXXXXX")
[ "${KEEP:-}" = 1 ] || trap 'rm -rf "$OUT"' EXIT

agents=("$@")
if [ ${#agents[@]} -eq 0 ]; then
	for d in "$HERE"/*/drive.sh; do agents+=("$(basename "$(dirname "$d")")"); done
fi

echo "building recall ..." >&2
(cd "$ROOT" && go build -o "$OUT/recall" .) || exit 2

status=0
for a in "${agents[@]}"; do
	echo "== $a" >&2
	if ! AGENT_VERSION=${AGENT_VERSION:-latest} RECALL="$OUT/recall" "$HERE/$a/drive.sh" "$OUT/$a" >"$OUT/$a.log" 2>&1; then
		echo "$a: the driver failed (last lines of its log):"
		tail -n 5 "$OUT/$a.log"
		status=2
		continue
	fi
	# Import what the new release wrote, as a person running `recall import all` in that HOME would.
	HOME="$OUT/$a/home" XDG_CONFIG_HOME="$OUT/$a/home/.config" XDG_DATA_HOME="$OUT/$a/home/.local/share" \
		"$OUT/recall" --db "$OUT/$a.db" import --json all >"$OUT/$a.import.json" 2>"$OUT/$a.import.err"
	python3 "$HERE/drift_report.py" "$a" "$HERE/$a" "$OUT/$a" "$OUT/$a.import.json"
	rc=$?
	if [ $rc -gt $status ] && [ $status -ne 2 ]; then status=$rc; fi
done
[ "${KEEP:-}" = 1 ] && echo "kept: $OUT" >&2
exit $status
