#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# robust.sh - the curses view on a 20-column terminal, resized, NO_COLOR, UTF-8 and escape bytes
# from the traced program, and the terminal given back after a crash signal
. "$(dirname "$0")/lib.sh"

upft_need_root
tui_build_spin

alt() {
	tmux_ display -p -t "$TUI_SES" '#{alternate_on}'
}

TUI_ENV="NO_COLOR=1" tui_start 20 10 -x "$SPIN" 'work i value name' -- "$SPIN" 0 200
tui_wait '^ upfront' 15
t_ok $? "the view opens on a 20x10 terminal"
tui_wait 'spin/' 10
t_ok $? "rows show on 20 columns"
wide=$(tui_screen | awk 'length($0) > 20')
t_is "$wide" "" "no line is wider than the terminal"
t_unlike "$(tmux_ capture-pane -t "$TUI_SES" -p -e)" $'\e\\[(3|4)[0-7]m' "NO_COLOR: no colours"

tmux_ resize-window -t "$TUI_SES" -x 200 -y 30
tui_wait 'total [0-9]+ +lost 0' 5
t_ok $? "the header is whole after growing to 200 columns"
tui_wait 'name="esc\\e\[31mred"' 5
t_ok $? "an ESC from the program is shown escaped"
t_unlike "$(tmux_ capture-pane -t "$TUI_SES" -p -e)" $'\e\\[31mred' "the ESC never reaches the terminal"
tui_wait 'name="émile ✓"' 5
t_ok $? "UTF-8 text is shown as text"
tui_keys s
tui_wait '^work +count' 5
t_ok $? "statistics on a wide terminal"
tmux_ resize-window -t "$TUI_SES" -x 24 -y 4
sleep 0.5
tui_keys Escape
tmux_ resize-window -t "$TUI_SES" -x 100 -y 20
tui_wait 'spin/' 5
t_ok $? "still running after shrinking to 24x4 and growing again"
t_is "$(alt)" 1 "the view uses the alternate screen"

UPID=$(tui_pid)
kill -SEGV "$UPID"
rc=$(tui_wait_exit 10)
t_is "$rc" 139 "a crash signal still kills (status 139)"
t_is "$(alt)" 0 "the terminal is given back after a crash"
# a crash leaves the run's events; its watchdog removes them, or the next run once the
# watchdog is gone (while it works the session's lock is held: the next run leaves it alone)
"$UPFRONT" -x "$SPIN" --stdio --max-events 1 'work i' -- "$SPIN" 5 0 >/dev/null 2>&1
for ((i = 0; i < 50; i++)); do
	grep -q "^[pr]:upfront_$UPID/" "$UPFT_TRACEFS/uprobe_events" ||
		[ -d "$UPFT_TRACEFS/instances/upfront_$UPID" ] || break
	sleep 0.1
done
t_unlike "$(cat "$UPFT_TRACEFS/uprobe_events")" "^[pr]:upfront_$UPID/" "what the crash left is removed (watchdog, or the next run)"
t_ok "$([ -e "$UPFT_TRACEFS/instances/upfront_$UPID" ] && echo 1 || echo 0)" "and its instance"

# colours on by default
tui_kill_server
tui_start 80 20 -x "$SPIN" 'work i' -- "$SPIN" 0 100
tui_wait 'spin/' 10
t_like "$(tmux_ capture-pane -t "$TUI_SES" -p -e)" $'\e\\[(3|4)[0-7]m' "colours without NO_COLOR"
tui_keys q
t_is "$(tui_wait_exit 10)" 0 "q exits 0"
t_is "$(alt)" 0 "q gives the terminal back"
tui_kill_server
t_done
