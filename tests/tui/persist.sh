#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# persist.sh - the curses view stays once tracing ended by itself (the command exited, the -p
# process exited): a status line says why, the events and statistics stay until q; its probes
# are removed meanwhile; --summary prints the summary after the view
. "$(dirname "$0")/lib.sh"

upft_need_root
tui_build_spin
C=$UPFT_TARGETS/c/calls-O2
[ -x "$C" ] || t_bail "targets not built (tests/targets/build.sh $UPFT_TARGETS)"

# 1. the command ends: 300 calls of work(), then spin exits
t0=$(date +%s.%N)
tui_start 160 40 --summary -x "$SPIN" 'work i value' -- "$SPIN" 300 0
tui_wait 'ended: the command exited with status 0' 20
t_ok $? "the command exited: the status line says so, the view stays" ||
	t_diag "$(tui_screen | tail -3)"
t_like "$(tui_header_total)" '^300$' "the header's total: 300"
UPID=$(tui_pid)
t_unlike "$(cat "$UPFT_TRACEFS/uprobe_events")" "^[pr]:upfront_$UPID/" \
	"its probes are removed while the view stays"
t_is "$(tui_wait_exit 1)" timeout "upfront runs on until q"
tui_keys s
tui_wait '^work +count 300' 5
t_ok $? "the statistics are intact: work count 300" || t_diag "$(tui_screen | head -5)"
tui_wait '^ +value +min -200 +avg 99 +max 400$' 5
t_ok $? "... value min -200, avg 99, max 400 (i % 7 * 100 - 200, i < 300)" || t_diag "$(tui_screen | head -8)"
sleep 3		# the view stays: the summary's time is the time traced, not this
tui_keys Escape q
t_is "$(tui_wait_exit 15)" 0 "q exits 0"
elapsed=$(python3 -c "import time; print(time.time() - $t0)")
tui_wait '^@ summary: [0-9.]+ s, 300 events, 0 lost' 5
t_ok $? "--summary: the summary on the terminal after the view" || t_diag "$(tui_screen | head -5)"
t_like "$(tui_screen)" '^  value: 300 values, min -200, avg 99, max 400$' \
	"--summary: the same numbers as the statistics"
secs=$(tui_screen | sed -n 's/^@ summary: \([0-9.]*\) s,.*/\1/p')
python3 -c "import sys; sys.exit(not float(sys.argv[1]) + 2.5 < float(sys.argv[2]))" "$secs" "$elapsed"
t_ok $? "--summary: its rates are over the time traced ($secs s), not the view's ($elapsed s)"
t_like "$(cat "$UPFT_TMP/err")" '^upfront: 300 events, 0 lost$' "the events line on stderr"
tui_kill_server

# 2. -p: the process exits, the view stays
"$C" loop 3 20 >/dev/null 2>&1 &
TUI_BG=$!
upft_wait_exec "$TUI_BG" "$C"
tui_start 160 40 -p "$TUI_BG" -x "$C" 'walk n'
tui_wait 'walk +n=3' 15
t_ok $? "-p: the process's calls show"
kill "$TUI_BG"
wait "$TUI_BG" 2>/dev/null
tui_wait 'ended: the traced process has exited' 10
t_ok $? "-p: the process exited: the status line says so, the view stays" ||
	t_diag "$(tui_screen | tail -3)"
tui_keys q
t_is "$(tui_wait_exit 15)" 0 "q exits 0"
t_like "$(cat "$UPFT_TMP/err")" "^upfront: the traced process has exited \\(pid $TUI_BG\\)\$" \
	"-p: the exit line after the view"

t_done
