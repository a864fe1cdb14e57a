#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# whole.sh - a whole struct in the curses view: its row shows it on one line as the text output
# does (gdb's spelling for C), the detail pane one member a row, nested members indented
# (c/whole's draw(), called 100 times; tests/e2e/whole.sh checks the text line)
. "$(dirname "$0")/lib.sh"

upft_need_root
command -v tmux >/dev/null || t_bail "tmux is not installed (apt-get install tmux)"
BIN=$UPFT_TARGETS/c/whole-O2
[ -x "$BIN" ] || t_bail "targets not built (tests/targets/build.sh $UPFT_TARGETS)"

# 100 runs of the sequence, 100 ms apart: the view ends with the command
tui_start 200 60 -x "$BIN" 'draw *s' -- "$BIN" 100 100
tui_wait 'draw +s=\{name = "square", tag = "sq", origin = \{x = 1, y = -2\}' 15
t_ok $? "the row shows the struct on one line, as the text output"
tui_keys Up Enter
tui_wait '^ +name = "square",' 5
t_ok $? "Enter shows the details: one member a row"
scr=$(tui_screen)
t_like "$scr" '^s +\*s \(struct shape\) +\{$' "the value opens with { after its expression and type"
t_like "$scr" '^ +origin = \{$' "a nested struct opens on its member's row"
t_like "$scr" '^ +x = 1,$' "its members indented below it"
t_like "$scr" '^ +y = -2$' "the last one without a comma (gdb's pretty print)"
t_like "$scr" '^ +grid = \{$' "a 2-D array opens a row"
t_like "$scr" '^ +\{4, 5, 6\}$' "its rows one a line"
t_like "$scr" '^ +color = GREEN,$' "an enum by name"
tui_keys q
tui_wait_gone '^ +origin = \{$' 5
t_ok $? "q goes back to the list"
tui_keys q
t_is "$(tui_wait_exit 10)" 0 "q quits with status 0"
t_done
