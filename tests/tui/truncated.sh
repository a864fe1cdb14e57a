#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# truncated.sh - the binary truncated by another process while the curses view runs: the
# next read of it (resolving a probe added with 'a') is a SIGBUS, which gives the terminal
# back, prints the one error line (not into the parked stderr) and exits 2; the watchdog
# removes the session's probes
. "$(dirname "$0")/lib.sh"
upft_need_root
command -v tmux >/dev/null || t_bail "tmux is not installed (apt-get install tmux)"
C=$UPFT_TARGETS/c/orders-O0
[ -x "$C" ] || t_bail "test targets not built (tests/targets/build.sh)"
B=$UPFT_TMP/victim
cp "$C" "$B"

tui_start 150 30 -x "$B" process_order -- "$C" 0 1000
tui_wait ' probes 1 ' 15
t_ok $? "the view runs"
UPID=$(tui_pid)
# the view shows its probes before the session enables them: truncate only once enabled (a
# uprobe enabled on the truncated file is the kernel's EINVAL, not the SIGBUS under test)
for ((i = 0; i < 150; i++)); do
	grep -qs 1 "$UPFT_TRACEFS/instances/upfront_$UPID/events/upfront_$UPID/process_order/enable" &&
		break
	sleep 0.1
done
t_is "$(cat "$UPFT_TRACEFS/instances/upfront_$UPID/events/upfront_$UPID/process_order/enable" \
	2>&1)" 1 "... its probe enabled"
truncate -s 4096 "$B"
tui_keys a
tui_keys -l 'process_batch'
tui_keys Enter
t_is "$(tui_wait_exit 15)" 2 "a probe added after the truncation: exit 2 (not a SIGBUS)"
t_is "$(cat "$UPFT_TMP/err")" \
	"upfront: $B was truncated while upfront read it (SIGBUS): run again once it is written" \
	"... the one error line, on the real stderr"
t_is "$(tmux_ display -p -t "$TUI_SES" '#{alternate_on}')" 0 "... back on the main screen"
for ((i = 0; i < 30; i++)); do
	grep -q "^[pr]:upfront_$UPID/" "$UPFT_TRACEFS/uprobe_events" ||
		[ -d "$UPFT_TRACEFS/instances/upfront_$UPID" ] || break
	sleep 0.1
done
t_unlike "$(cat "$UPFT_TRACEFS/uprobe_events")" "^[pr]:upfront_$UPID/" \
	"... its events are removed (watchdog)"
t_ok "$([ -e "$UPFT_TRACEFS/instances/upfront_$UPID" ] && echo 1 || echo 0)" "... and its instance"
tui_kill_server

t_done
