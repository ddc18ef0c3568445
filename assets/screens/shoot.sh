#!/usr/bin/env bash
# shoot.sh makes the README's pictures of recall from the binary itself: it builds recall from this
# checkout, runs `recall demo` (the embedded demo history: no configuration, no network) in a private
# tmux server, types a query as a person would, waits until the screen stops changing (the ranked list
# and the reading pane drawn), captures it with its colours (`tmux capture-pane -p -e`) and draws that
# capture as a PNG with term2png.py, then reduces the PNG to a 64-colour palette (a fifth of the size).
#
# usage: assets/screens/shoot.sh [OUT_DIR]          (OUT_DIR defaults to assets/screens)
#
# term2png.py is not part of recall (its header names no licence, so it is not copied here): give its
# path in TERM2PNG, else the checkout's ../shared/tools/term2png.py is used. It needs the system Python
# with Debian's python3-pil, python3-fonttools, fonts-dejavu-core and fonts-noto-cjk; this script also
# needs go and tmux. The pictures show the demo's relative dates ("26d ago") as of the day they are made.
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
out=$(cd "${1:-$root/assets/screens}" && pwd)
term2png=${TERM2PNG:-$root/../shared/tools/term2png.py}
python=${PYTHON:-/usr/bin/python3}
[ -f "$term2png" ] || { echo "shoot.sh: no term2png.py at $term2png (set TERM2PNG to its path)" >&2; exit 1; }
command -v tmux >/dev/null || { echo "shoot.sh: tmux is not installed" >&2; exit 1; }
"$python" -c 'import PIL, fontTools' 2>/dev/null || { echo "shoot.sh: $python lacks PIL or fontTools (apt-get install python3-pil python3-fonttools)" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/recall-shoot-XXXXXX")
sock=$work/tmux.sock
cleanup() { tmux -S "$sock" kill-server 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT

(cd "$root" && go build -o "$work/recall" .)
mkdir -p "$work/home"

# shoot NAME COLS ROWS QUERY [KEY...]: one picture, assets/screens/NAME.png. The keys after the query
# (tmux key names: Down, Tab, ...) are sent one by one once the query's results are drawn.
shoot() {
	local name=$1 cols=$2 rows=$3 query=$4
	shift 4
	# A clean environment: no user's config or keys, no model (offline summaries), no $COLORFGBG (the dark theme), UTC.
	tmux -S "$sock" -f /dev/null new-session -d -s "$name" -x "$cols" -y "$rows" \
		env -i PATH=/usr/bin:/bin HOME="$work/home" XDG_CONFIG_HOME="$work/home/.config" \
		XDG_CACHE_HOME="$work/home/.cache" TMPDIR="$work" TERM=xterm-256color LANG=C.UTF-8 TZ=UTC \
		"$work/recall" demo
	settle "$name"
	tmux -S "$sock" send-keys -t "$name" -l "$query"
	settle "$name"
	for key in "$@"; do
		tmux -S "$sock" send-keys -t "$name" "$key"
		settle "$name"
	done
	tmux -S "$sock" capture-pane -t "$name" -p -e >"$work/$name.ansi"
	tmux -S "$sock" kill-session -t "$name"
	"$python" "$term2png" "$work/$name.ansi" "$work/$name.png" "$cols" "$rows"
	"$python" - "$work/$name.png" "$out/$name.png" <<'PY'
import sys
from PIL import Image
Image.open(sys.argv[1]).convert("RGB").quantize(colors=64, method=Image.Quantize.MEDIANCUT).save(sys.argv[2], optimize=True)
PY
	echo "$out/$name.png: $(wc -c <"$out/$name.png") bytes, $cols x $rows"
}

# settle waits until the screen has been the same for a second and its status line counts sessions
# (the first paint, the ranked phase after the typing pause and the reading pane all drawn), at most 30 s.
settle() {
	local prev="" cur i
	for i in $(seq 60); do
		sleep 0.5
		cur=$(tmux -S "$sock" capture-pane -t "$1" -p -e)
		if [ "$cur" = "$prev" ] && grep -q 'session' <<<"$(tail -n 2 <<<"$cur")"; then
			return 0
		fi
		prev=$cur
	done
	echo "shoot.sh: the screen of $1 did not settle in 30 s" >&2
	exit 1
}

# The top of the README: an English question's words over the demo history, hits highlighted in the
# list and in the reading pane, which opens at the best session's first hit.
shoot search 120 40 "docker network"
# Further down: a two-character Chinese word (the CJK index), the second session selected.
shoot cjk 120 40 "部署" Down
