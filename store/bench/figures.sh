#!/usr/bin/env bash
# figures.sh measures the figures of BENCHMARKS.md (and the README's "How fast, how good") again on
# this checkout: each step runs one benchmark command and writes its output to OUT/<step>.txt, headed
# by the command, the date, the commit and the machine, so a table can be brought up to date from the
# file and say where its numbers come from.
#
# usage: store/bench/figures.sh [-o OUT] [-w WORK] STEP...
#
#   quality   LoCoMo and the demo's judged coding queries, recall beside plain bm25 (minutes)
#   coding    real coding-agent sessions, recall beside plain bm25 (a minute or two)
#   mixed     as-you-type search on the 1M corpus: first and final phase per query kind
#   native    recall against native SQLite running Hermes's search SQL, same file, one run
#   coverage  ranking over every match against FTS5's own bm25 (1M; COVERAGE_SIZES="200k 1m 3m" for more:
#             3m needs ~8 GB of disk and hours)
#   plain     plain queries and questions (Discover's search) on the 1M corpus
#   pipeline  recall's phase 1 and the transcript window (recall Discover|Truncate)
#   tui       keystroke to new list, View, RSS (ui Keystroke|View)
#   mcp       `recall mcp` over stdio against in-process calls
#   open      opening a database, cold and warm
#   import    Claude Code trees, the deferred trigram pass, newest first (tens of minutes)
#   all       every step above, in that order
#
# OUT defaults to /tmp/recall-figures/<date>-<commit>, WORK (the corpora, the built binary) to
# /tmp/recall-figures/work; a corpus is generated once (`recall gen`, ~10 minutes and 2.6 GB for 1M) and
# kept there for the next run. The datasets are never part of recall: RECALL_LOCOMO names the LoCoMo
# folder (default ../shared/datasets/locomo-dev beside the checkout), CODING_DEV the coding-dev folder
# (default ../shared/datasets/coding-dev). The machine should be otherwise idle, and a comparison is
# only as good as its one run: rerun a step whose numbers look off, and say so beside the table.
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
out="" work=/tmp/recall-figures/work
while getopts "o:w:h" opt; do
	case $opt in
	o) out=$OPTARG ;;
	w) work=$OPTARG ;;
	h) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -gt 0 ] || { echo "figures.sh: name the steps to run (or all); -h lists them" >&2; exit 2; }
steps=("$@")
known=(quality coding mixed native coverage plain pipeline tui mcp open import)
[ "${steps[*]}" = all ] && steps=("${known[@]}")
for step in "${steps[@]}"; do
	[[ " ${known[*]} " == *" $step "* ]] || { echo "figures.sh: unknown step $step (-h lists them)" >&2; exit 2; }
done

cd "$root"
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
[ -z "$(git status --porcelain 2>/dev/null)" ] || commit="$commit+changes"
out=${out:-/tmp/recall-figures/$(date -u +%Y-%m-%d)-$commit}
mkdir -p "$out" "$work"
locomo=${RECALL_LOCOMO:-$root/../shared/datasets/locomo-dev}
coding=${CODING_DEV:-$root/../shared/datasets/coding-dev}

echo "building $work/recall"
go build -o "$work/recall" .

# corpus N: the path of a `recall gen` corpus of N messages (200k, 1m, 3m), generated on first use.
corpus() {
	local db=$work/c$1.db n
	case $1 in 200k) n=200000 ;; 1m) n=1000000 ;; 3m) n=3000000 ;; *) echo "figures.sh: no corpus size $1" >&2; exit 2 ;; esac
	if [ ! -e "$db.done" ]; then # a generation cut short starts again
		echo "generating $db ($n messages, once)" >&2
		rm -f "$db" "$db-wal" "$db-shm"
		"$work/recall" --db "$db" gen --messages "$n" --seed 1 >&2
		touch "$db.done"
	fi
	echo "$db"
}

# record STEP COMMAND...: runs the command from the checkout, its output to OUT/STEP.txt after a header.
record() {
	local step=$1 f
	shift
	f=$out/$step.txt
	{
		echo "# $step: $*"
		echo "# date: $(date -u +%Y-%m-%dT%H:%M:%SZ)  commit: $commit  $(go version | cut -d' ' -f3-)"
		echo "# machine: $(nproc) cores, $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -1), $(free -g | awk '/^Mem:/{print $2}') GiB, load average at start $(cut -d' ' -f1-3 /proc/loadavg)"
		echo
	} >"$f"
	echo "== $step: $*"
	env "$@" 2>&1 | tee -a "$f"
}

bench() { # bench STEP PACKAGE PATTERN BENCHTIME [VAR=VALUE...]: a go benchmark of the 1M corpus
	local step=$1 pkg=$2 pat=$3 time=$4
	shift 4
	record "$step" RECALL_BENCH_DB="$(corpus 1m)" "$@" go test "$pkg" -run '^$' -bench "$pat" -benchtime "$time" -timeout 120m
}

for step in "${steps[@]}"; do
	case $step in
	quality)
		[ -d "$locomo" ] || { echo "figures.sh: no LoCoMo folder at $locomo (set RECALL_LOCOMO)" >&2; exit 1; }
		record quality RECALL_LOCOMO="$locomo" go test ./recall/sessionsearch -run '^$' -bench Quality -benchtime 1x -timeout 60m ;;
	coding)
		[ -f "$coding/eval_coding.py" ] || { echo "figures.sh: no eval_coding.py in $coding (set CODING_DEV)" >&2; exit 1; }
		record coding python3 "$coding/eval_coding.py" --recall "$work/recall" --work "$work/coding-dev" --fresh ;;
	mixed) bench mixed ./store SearchMixed 40x ;;
	native) record native python3 store/bench/compare_native.py --recall "$work/recall" --db "$(corpus 1m)" --reps 9 ;;
	coverage)
		for size in ${COVERAGE_SIZES:-1m}; do
			record "coverage_$size" RECALL_BENCH_DB="$(corpus "$size")" go test ./store -run '^$' -bench RankCoverage -benchtime 1x -timeout 600m
		done ;;
	plain) bench plain ./store PlainSessions 20x ;;
	pipeline) bench pipeline ./recall 'Discover|Truncate' 30x ;;
	tui) bench tui ./ui 'Keystroke|View' 300x ;;
	mcp) bench mcp ./ui/mcpserver Stdio 1x RECALL_BENCH_REPS=15 ;;
	open) record open go test ./store -run '^$' -bench 'Open(Cold|Warm)' ;;
	import)
		record import_claude go test ./ui/cli -run '^$' -bench 'ImportClaude|ImportNewestFirst' -benchtime 1x -timeout 120m
		record import_levers go test ./ui/cli -run '^$' -bench ImportLevers -benchtime 1x -timeout 120m
		record import_store go test ./store -run '^$' -bench ImportLeversStore -benchtime 1x -count 2 -timeout 120m ;;
	esac
done
echo "outputs in $out:"
ls -1 "$out"
