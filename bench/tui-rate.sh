#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tui-rate.sh - the curses view at the kernel's full rate: events kept vs --json, key latency,
# statistics that count every event.
#
# usage: bench/tui-rate.sh [EVENTS]      (default 1000000; needs root, tmux, gcc)
#
# The workload is tests/tui/spin.c calling work(i, value, name) EVENTS times flat out; the
# probe sits on work's first instruction (push %rbp, emulated by the kernel: ~1 us per hit)
# and fetches two registers and a string. First --json to a file, then the view in a 160x40
# tmux: while the events stream, '?' and Esc are sent every 0.3 s and the time until the
# screen changes is measured (an upper bound: it includes tmux capture-pane's own cost).
set -u
N=${1:-1000000}
SRC=$(cd "$(dirname "$0")/.." && pwd)
UPFRONT=${UPFRONT:-$SRC/upfront}
TMP=$(mktemp -d /tmp/upft_tuibench.XXXXXX)
SOCK=upft_tuibench$$
cleanup() {
	tmux -L "$SOCK" kill-server 2>/dev/null
	rm -rf "$TMP"
}
trap cleanup EXIT INT TERM

gcc -g -O0 -fno-omit-frame-pointer -o "$TMP/spin" "$SRC/tests/tui/spin.c" || exit 1
SPIN=$TMP/spin
PROBE='work+0 i=%di:s32 value=%si:s64 name=%dx:string'
ms() { echo $(($(date +%s%N) / 1000000)); }

# 1. --json to a file
t0=$(ms)
"$UPFRONT" -x "$SPIN" --json "$PROBE" -- "$SPIN" "$N" 0 >"$TMP/json" 2>"$TMP/json.err"
t1=$(ms)
json_lines=$(grep -c '^{"time"' "$TMP/json")
json_sum=$(grep -E '^upfront: [0-9]+ events' "$TMP/json.err" | tail -1)
json_lost=$(echo "$json_sum" | sed -n 's/.* \([0-9]*\) lost.*/\1/p')

# 2. the view: CMD waits 3 s (the view opens), makes N calls, then idles until q
tmux -L "$SOCK" -f /dev/null new-session -d -s b -x 160 -y 40 \
	"bash -c '$UPFRONT -x $SPIN \"$PROBE\" -- /bin/sh -c \"sleep 3; $SPIN $N 0; exec sleep 600\" 2>$TMP/tui.err; sleep 600'"
screen() { tmux -L "$SOCK" capture-pane -t b -p; }
total() { screen | sed -n '1s/.* total \([0-9]*\).*/\1/p'; }
for _ in $(seq 100); do screen | grep -q ' probes 1 ' && break; sleep 0.1; done

lat=()
key=?
t2=$(ms)
last=-1 same=0
while :; do
	before=$(screen | sed -n 2p)
	s=$(date +%s%N)
	tmux -L "$SOCK" send-keys -t b "$key"
	for _ in $(seq 400); do
		[ "$(screen | sed -n 2p)" != "$before" ] && break
	done
	lat+=($((($(date +%s%N) - s) / 1000000)))
	[ "$key" = "?" ] && key=Escape || key=?
	sleep 0.3
	cur=$(total)
	[ "${cur:-0}" -ge "$N" ] && [ "$key" = "?" ] && break
	if [ "$cur" = "$last" ]; then
		same=$((same + 1))
		[ $same -ge 20 ] && [ "$key" = "?" ] && break
	else
		same=0
	fi
	last=$cur
done
t3=$(ms)
tmux -L "$SOCK" send-keys -t b s
sleep 0.5
stats=$(screen | sed -n 's/^work  *count \([0-9]*\).*/\1/p')
rate=$(screen | sed -n 's/.*peak \([0-9]*\)\/s.*/\1/p' | head -1)
tmux -L "$SOCK" send-keys -t b Escape
sleep 0.2
tmux -L "$SOCK" send-keys -t b q
for _ in $(seq 100); do grep -q '^upfront: [0-9]* events' "$TMP/tui.err" 2>/dev/null && break; sleep 0.1; done
tui_sum=$(grep -E '^upfront: [0-9]+ events' "$TMP/tui.err" | tail -1)
tui_events=$(echo "$tui_sum" | sed -n 's/^upfront: \([0-9]*\) events.*/\1/p')
tui_lost=$(echo "$tui_sum" | sed -n 's/.* \([0-9]*\) lost.*/\1/p')

sorted=$(printf '%s\n' "${lat[@]}" | sort -n)
nlat=${#lat[@]}
med=$(echo "$sorted" | sed -n "$(((nlat + 1) / 2))p")
max=$(echo "$sorted" | tail -1)

printf '%-28s %12s %10s %10s\n' "" events lost seconds
printf '%-28s %12s %10s %10s\n' "target calls" "$N" - -
printf '%-28s %12s %10s %10s\n' "--json to a file" "$json_lines" "${json_lost:-?}" \
	"$(awk "BEGIN{printf \"%.2f\", ($t1-$t0)/1000}")"
printf '%-28s %12s %10s %10s\n' "curses view (summary)" "${tui_events:-?}" "${tui_lost:-?}" \
	"$(awk "BEGIN{printf \"%.2f\", ($t3-$t2)/1000}")"
printf '%-28s %12s\n' "curses view (stats: work)" "${stats:-?}"
printf '%-28s %12s\n' "peak rate seen (events/s)" "${rate:-?}"
printf 'key latency: %d keys, median %s ms, max %s ms (while streaming)\n' "$nlat" "$med" "$max"

fail=0
[ "${tui_events:-0}" -ge "$json_lines" ] && [ "${tui_lost:-1}" -le "${json_lost:-0}" ] &&
	echo "PASS: the view kept every event --json kept" ||
	{ echo "FAIL: the view kept ${tui_events:-?} (lost ${tui_lost:-?}), --json $json_lines"; fail=1; }
[ "${max:-999}" -le 100 ] && echo "PASS: every key answered within 100 ms" ||
	{ echo "FAIL: a key took ${max:-?} ms"; fail=1; }
[ "${stats:-0}" = "${tui_events:-x}" ] && [ "${stats:-0}" = "$N" ] &&
	echo "PASS: the statistics count every event ($N)" ||
	{ echo "FAIL: statistics ${stats:-?}, events ${tui_events:-?}, calls $N"; fail=1; }
exit $fail
