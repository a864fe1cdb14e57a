#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# stack-inline.sh - the detail pane's user stack shows the functions inlined at a frame:
# c/inlined's leaf() is called from inner(), inlined into outer(), inlined into main()
# (tests/e2e/stack-inline.sh checks the same frames in text and JSON)
. "$(dirname "$0")/lib.sh"

upft_need_root
command -v tmux >/dev/null || t_bail "tmux is not installed (apt-get install tmux)"
BIN=$UPFT_TARGETS/c/inlined-O2
[ -x "$BIN" ] || t_bail "targets not built (tests/targets/build.sh $UPFT_TARGETS)"

# 100 calls, 100 ms apart: the view ends with the command
tui_start 160 40 --stack -x "$BIN" 'leaf x' -- "$BIN" 100 100
tui_wait 'leaf +x=3' 15
t_ok $? "the event appears"
tui_keys Up Enter
tui_wait '^ *user stack' 5
t_ok $? "Enter shows the details with the user stack"
scr=$(tui_screen)
t_like "$scr" '^ *#0 +0x[0-9a-f]{16} +leaf\+0x0 *$' "#0 leaf+0x0"
t_like "$scr" '^ *#1 +0x[0-9a-f]{16} +inner \(inlined\) *$' "#1 inner (inlined)"
t_like "$scr" '^ *#2 +0x[0-9a-f]{16} +outer \(inlined\) *$' "#2 outer (inlined)"
t_like "$scr" '^ *#3 +0x[0-9a-f]{16} +main\+0x[0-9a-f]+ *$' "#3 main+0xOFF"
t_like "$scr" '^ *#4 +0x[0-9a-f]{16} +__libc_start_call_main\+0x[0-9a-f]+ *$' "#4 libc's caller"
tui_keys Escape q	# Esc closes the pane (q would too), q quits; the view outlives the command
t_is "$(tui_wait_exit 10)" 0 "q quits with status 0"
t_done
