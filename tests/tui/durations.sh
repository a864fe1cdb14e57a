#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# durations.sh - the curses view with FUNC and FUNC%return: each return row and its detail
# pane show the call's duration, the statistics a latency histogram of the function
. "$(dirname "$0")/lib.sh"

upft_need_root
command -v tmux >/dev/null || t_bail "tmux is not installed (apt-get install tmux)"
C=$UPFT_TARGETS/c/calls-O2
[ -x "$C" ] || t_bail "targets not built (tests/targets/build.sh $UPFT_TARGETS)"

# walk(4): 9 calls every 50 ms
"$C" loop 4 50 2>/dev/null &
TUI_BG=$!
tui_start 160 50 -p "$TUI_BG" 'walk n' 'walk%return $retval'

tui_wait 'walk__return +retval=[0-9]+ +duration=[0-9.]+(ns|us|ms|s)$' 15
t_ok $? "return rows end with duration=N(ns|us|ms|s)"
t_unlike "$(tui_screen | grep -E ' walk +n=')" 'duration=' "entry rows have no duration"

# the statistics: a latency line and histogram under walk__return, from fastest to slowest
for _ in $(seq 50); do
	[ "$(tui_header_total)" -ge 180 ] 2>/dev/null && break
	sleep 0.1
done
tui_keys s
tui_wait '^ +duration +calls [0-9]+ +min ' 5
t_ok $? "the statistics show the durations of walk's calls"
# the target stopped and the screen the same twice: a capture while the view redraws may hold
# the new count above the old histogram (6.1 under TCG: "2334 in buckets, 2335 calls")
kill -STOP "$TUI_BG"
scr=$(tui_screen)
for _ in $(seq 50); do
	sleep 0.3
	now=$(tui_screen)
	[ "$now" = "$scr" ] && break
	scr=$now
done
kill -CONT "$TUI_BG"
t_like "$scr" '^ +duration +calls [0-9]+ +min [0-9.]+(ns|us|ms|s) +avg [0-9.]+(ns|us|ms|s) +max [0-9.]+(ns|us|ms|s) +p50 [0-9.]+(ns|us|ms|s) +p90 [0-9.]+(ns|us|ms|s) +p99 [0-9.]+(ns|us|ms|s)$' \
	"calls, min, avg, max and p50/p90/p99 as durations"
t_is "$(printf '%s\n' "$scr" | python3 -c '
import re, sys
lines = sys.stdin.read().splitlines()
start = [i for i, l in enumerate(lines) if re.match(r"^ +duration +calls ", l)][0]
calls = int(re.search(r"calls (\d+)", lines[start]).group(1))
total = 0
for l in lines[start + 1:]:
    m = re.match(r"^ +\[[0-9.]+(ns|us|ms|s)?, [0-9.]+(ns|us|ms|s)\) .* (\d+)$", l)
    if not m:
        break
    total += int(m.group(3))
print("ok" if total == calls and calls > 0 else "%d in buckets, %d calls" % (total, calls))')" \
	ok "the histogram's buckets add up to the calls"
tui_keys Escape

# the detail pane of a return
tui_keys End
tui_keys / w a l k _ _ r e t u r n Enter
sleep 0.5
tui_keys Enter
tui_wait '^call +[0-9.]+(ns|us|ms|s) +\([0-9]+ ns since its entry\)' 5
t_ok $? "the detail pane of a return names the call's duration"
tui_keys Escape Escape q
t_is "$(tui_wait_exit 20)" 0 "q: exit 0"
kill "$TUI_BG" 2>/dev/null
wait "$TUI_BG" 2>/dev/null
t_done
