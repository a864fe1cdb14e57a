#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# names.sh - the curses view shows names from a hostile binary (a function named with a
# newline and an escape sequence) escaped, as -F does: in the probes list, in the Tab
# completions and in the add prompt; no sequence reaches the terminal, no row is split
. "$(dirname "$0")/lib.sh"

upft_need_root
command -v tmux >/dev/null || t_bail "tmux is not installed (apt-get install tmux)"
python3 "$UPFT_SRCDIR/tests/e2e/hostile-names.py" "$UPFT_TMP" || t_bail "cannot build the hostile target"
H=$UPFT_TMP/hostile
ESC=$'\e'

TUI_ENV="NO_COLOR=1" tui_start 120 30 -x "$H" 'evil*' -- sh -c "while :; do $H; sleep 0.1; done"
tui_wait 'evil_fake_func_31m' 15
t_ok $? "the view shows the hostile function's events (named as an identifier)"
tui_keys p
tui_wait 'evil\\nfake_func\\e\[31m' 10
t_ok $? "the probes list shows the function's name escaped" || t_diag "$(tui_screen)"
t_unlike "$(tui_screen)" '^ *fake_func' "... on one row: no fake row"
t_unlike "$(tmux_ capture-pane -t "$TUI_SES" -p -e)" "$ESC\\[31m" "... and its ESC never reaches the terminal"
tui_keys Escape
tui_keys a
tui_keys -l -- 'evi'
tui_keys Tab
tui_wait '^add probe: evil\\nfake_func\\e\[31m *$' 10
t_ok $? "Tab completes the name, shown escaped in the prompt" || t_diag "$(tui_screen | tail -3)"
tui_keys C-u
tui_keys Tab
tui_wait '^ evil\\nfake_func\\e\[31m *$' 10
t_ok $? "the completions list shows it escaped" || t_diag "$(tui_screen | tail -6)"
t_unlike "$(tmux_ capture-pane -t "$TUI_SES" -p -e)" "$ESC\\[31m" "... with no ESC reaching the terminal"
tui_keys Escape
tui_keys q
t_is "$(tui_wait_exit 10)" 0 "q exits 0"

t_done
