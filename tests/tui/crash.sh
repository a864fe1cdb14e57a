#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# crash.sh - a fatal signal in the curses view (SIGSEGV, SIGQUIT from Ctrl-\, SIGABRT) gives
# the terminal back from the signal handler with async-signal-safe calls only: the saved
# modes (stty), the main screen, a visible cursor; the process still dies of the signal and
# its cleanup watchdog leaves tracefs clean
. "$(dirname "$0")/lib.sh"

upft_need_root
tui_build_spin

# crash_start - the view in a pane whose shell saves the terminal's modes before and after
crash_start() {
	local cmd a
	cmd="stty -g >$UPFT_TMP/stty.before; exec 2>$UPFT_TMP/err; $(printf '%q' "$UPFRONT")"
	for a in -x "$SPIN" 'work i' -- "$SPIN" 0 100; do
		cmd+=" $(printf '%q' "$a")"
	done
	cmd+="; echo \$? >$UPFT_TMP/rc; stty -g >$UPFT_TMP/stty.after; sleep 600"
	rm -f "$UPFT_TMP/rc" "$UPFT_TMP/stty.after"
	tmux_ -f /dev/null new-session -d -s "$TUI_SES" -x 100 -y 30 "bash -c $(printf '%q' "$cmd")"
}

pane() {
	tmux_ display -p -t "$TUI_SES" "#{$1}"
}

for sig in SEGV QUIT ABRT; do
	crash_start
	tui_wait 'spin/' 15
	t_ok $? "SIG$sig: the view runs"
	UPID=$(tui_pid)
	t_is "$(pane alternate_on)" 1 "SIG$sig: on the alternate screen"
	t_is "$(pane cursor_flag)" 0 "SIG$sig: cursor hidden"
	if [ "$sig" = QUIT ]; then
		tui_keys C-'\'		# Ctrl-\ on the terminal, as a user would
	else
		kill -"$sig" "$UPID"
	fi
	rc=$(tui_wait_exit 10)
	t_is "$rc" $((128 + $(kill -l "$sig"))) "SIG$sig: upfront dies of the signal"
	for ((i = 0; i < 50; i++)); do
		[ -s "$UPFT_TMP/stty.after" ] && break
		sleep 0.1
	done
	t_is "$(cat "$UPFT_TMP/stty.after")" "$(cat "$UPFT_TMP/stty.before")" \
		"SIG$sig: the terminal's modes are restored (stty -g)"
	t_is "$(pane alternate_on)" 0 "SIG$sig: back on the main screen"
	t_is "$(pane cursor_flag)" 1 "SIG$sig: the cursor is visible"
	for ((i = 0; i < 30; i++)); do
		grep -q "^[pr]:upfront_$UPID/" "$UPFT_TRACEFS/uprobe_events" ||
			[ -d "$UPFT_TRACEFS/instances/upfront_$UPID" ] || break
		sleep 0.1
	done
	t_unlike "$(cat "$UPFT_TRACEFS/uprobe_events")" "^[pr]:upfront_$UPID/" "SIG$sig: its events are removed (watchdog)"
	t_ok "$([ -e "$UPFT_TRACEFS/instances/upfront_$UPID" ] && echo 1 || echo 0)" "SIG$sig: and its instance"
	tui_kill_server
done

t_done
