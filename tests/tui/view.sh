#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# view.sh - the curses view in tmux: opens, shows values, filters, counts, adds a probe, quits clean
. "$(dirname "$0")/lib.sh"

upft_need_root
tui_build_spin
N=300

# 300 calls of work() at 100/s once upfront traces (SIGUSR1: a fixed 2 s was too short for the
# view to start in a qemu TCG guest, which missed the first 42), then other() until killed
"$SPIN" $N 100 -1 tail &
TUI_BG=$!
tui_start 160 40 -x "$SPIN" -p "$TUI_BG" 'work i value name'

tui_wait ' probes 1 ' 15
t_ok $? "the view opens with a header"
UPID=$(tui_pid)
upft_wait_tracing "$UPID" || t_bail "upfront $UPID does not trace"
kill -USR1 "$TUI_BG"

tui_wait 'work +i=[0-9]+ +value=' 15
t_ok $? "events appear"
# the time column: seconds since the first event with microseconds, as --stdio and --json
t_like "$(tui_screen)" '^[0-9]+\.[0-9]{6} +spin/[0-9]+ +work ' \
	"rows begin with the time in seconds, 6 decimals (the text and JSON time base)"
# each row: value is (i % 7) * 100 - 200, name is names[i % 6]
bad=$(tui_screen | python3 -c '
import re, sys
names = ["alice", "bob", "carol", "\u00e9mile \u2713", "esc\\e[31mred", "dave"]
rows = bad = 0
for l in sys.stdin:
    m = re.search(r"work +i=(\d+) +value=(-?\d+) +name=\"(.*)\"", l)
    if not m:
        continue
    rows += 1
    i, v, n = int(m.group(1)), int(m.group(2)), m.group(3)
    if v != (i % 7) * 100 - 200 or n != names[i % 6]:
        bad += 1
        print(l.rstrip())
if not rows:
    print("no rows")
')
t_is "$bad" "" "every row shows the values the target passed (UTF-8 kept, ESC escaped)"

# the target is done after ~3 s of calls; the stats count every call
for _ in $(seq $((100 * ${UPFT_TIMEOUT_SCALE:-1}))); do
	[ "$(tui_header_total)" = "$N" ] && break
	sleep 0.1
done
t_is "$(tui_header_total)" "$N" "the header counts $N events"
tui_keys s
tui_wait '^work +count' 5
t_like "$(tui_screen)" "^work +count $N " "the statistics count $N calls of work"
t_like "$(tui_screen)" '^ +value +min -200 +avg [0-9.]+ +max 400' "numeric min/max of value"
t_like "$(tui_screen)" '^ +[0-9]+ +"carol"' "top string values with counts"
tui_keys Escape
tui_wait_gone '^work +count' 5	# back in the list

# the filter hides rows that do not match
tui_keys / c a r o l Enter
tui_wait_gone 'name="(alice|bob|dave)"' 5
scr=$(tui_screen)
t_like "$scr" 'name="carol"' "the filter keeps matching rows"
t_unlike "$scr" 'name="(alice|bob|dave)"' "the filter hides the other rows"
tui_keys Escape
tui_wait 'name="alice"' 5
t_like "$(tui_screen)" 'name="alice"' "Esc clears the filter"

# detail pane of the selected event
tui_keys Up Enter
tui_wait '^value +\(long' 5
t_ok $? "Enter shows the details with types"
t_like "$(tui_screen)" '^value +\(long int\) +-?[0-9]+ +\(0x[0-9a-f]+\)' "numbers in decimal and hex"
tui_keys Escape End

# add a probe through 'a' with completion
tui_keys a o t h Tab
tui_wait 'add probe: other *$' 5
t_ok $? "Tab completes the function name"
tui_keys Tab
tui_wait '^ x *$' 5
t_ok $? "Tab lists the variables of the function"
tui_keys x Enter
tui_wait 'added other' 10
t_ok $? "the status line confirms the new probe"
tui_wait 'other +x=[0-9]+' 10
t_ok $? "the new probe's events show"

# a bad probe is an error in the status line, the view stays
tui_keys a n o _ s u c h _ f u n c Enter
tui_wait 'no_such_func' 10
t_ok $? "a bad probe is reported in the status line"

# q: exit 0, summary on stderr, nothing left in tracefs
tui_keys q
rc=$(tui_wait_exit 15)
t_is "$rc" 0 "q exits with status 0"
t_like "$(cat "$UPFT_TMP/err")" '^upfront: [0-9]+ events, 0 lost' "the summary goes to stderr after the view"
t_unlike "$(cat "$UPFT_TRACEFS/uprobe_events")" "^[pr]:upfront_$UPID/" "no events of the run are left"
t_ok "$([ -e "$UPFT_TRACEFS/instances/upfront_$UPID" ] && echo 1 || echo 0)" "its instance is removed"
t_done
