#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# replay.sh - --replay FILE in the curses view: the saved events in the list, the statistics
# of the run, a status line naming the replay; as uid 65534; q quits
. "$(dirname "$0")/lib.sh"

upft_need_root
command -v tmux >/dev/null || t_bail "tmux is not installed (apt-get install tmux)"
C=$UPFT_TARGETS/c/calls-O2
[ -x "$C" ] || t_bail "targets not built (tests/targets/build.sh $UPFT_TARGETS)"

run=$UPFT_TMP/run.json
"$UPFRONT" --json -o "$run" -x "$C" 'job id usec' 'job%return $retval' -- "$C" threads 2 5 \
	>/dev/null 2>&1 </dev/null
t_is "$(grep -c '^{"time"' "$run")" 20 "the run saved 20 events"
chmod 755 "$UPFT_TMP"
chmod 644 "$run"

TUI_ENV="setpriv --reuid=65534 --regid=65534 --clear-groups"
tui_start 160 40 --replay "$run"
tui_wait 'ended: a replay of .*run.json, 20 events' 15
t_ok $? "the status line names the replay" || t_diag "$(tui_screen | tail -3)"
t_like "$(tui_screen)" 'job__return +retval=1004 +duration=[0-9.]+ms' "the saved returns, with durations"
t_like "$(tui_header_total)" '^20$' "the header's total: 20"
tui_keys s
tui_wait '^job +count 10' 5
t_ok $? "the statistics: job count 10" || t_diag "$(tui_screen | head -5)"
tui_wait '^ +id +min 0 +avg 502 +max 1004$' 5
t_ok $? "... id min 0, avg 502, max 1004" || t_diag "$(tui_screen | head -8)"
tui_wait '^ +duration +calls 10 +min ' 5
t_ok $? "... the durations of job's 10 calls"
tui_keys Escape q
t_is "$(tui_wait_exit 15)" 0 "q exits 0"
t_like "$(cat "$UPFT_TMP/err")" '^upfront: replayed 20 events, 0 lost$' "the line on stderr"
t_done
