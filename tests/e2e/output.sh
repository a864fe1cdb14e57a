#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# output.sh - event lines are written whole while the traced command floods its own stdout;
# -o FILE; one time base (seconds since the first event, microseconds) in text and JSON
. "$(dirname "$0")/lib.sh"
upft_need_root

C=$UPFT_TARGETS/c/calls-O2
[ -x "$C" ] || t_bail "targets not built (tests/targets/build.sh $UPFT_TARGETS)"
N=100000
# The floods below are about whole lines, not about keeping up: the per-CPU ring buffer
# holds all N events (28 bytes each, measured in an instance: 2.8 MB) so that none is lost
# while the drain waits for a CPU on a loaded machine (it lost some once under others' load)
FLOOD_KB=8192

# check_json FILE - "LINES BAD": lines, and lines that are not a whole JSON event
check_json() {
	python3 -c '
import json, sys
n = bad = 0
for l in open(sys.argv[1], errors="replace"):
    n += 1
    try:
        ev = json.loads(l)
        if "probe" not in ev or ev["probe"] != "tick":
            bad += 1
    except ValueError:
        bad += 1
print(n, bad)' "$1"
}

# 1. --json into a pipe while CMD floods its stdout (block-buffered: its writes end anywhere
#    in a line): every line is one whole event, in several runs; CMD's lines go to stderr
for run in 1 2 3; do
	UPFRONT_BUFFER_KB=$FLOOD_KB "$UPFRONT" --json -x "$C" 'tick i' -- "$C" flood $N \
		2>"$UPFT_TMP/f.err" </dev/null |
		cat >"$UPFT_TMP/f.out"
	t_is "$(check_json "$UPFT_TMP/f.out")" "$N 0" "flood $run: $N whole JSON lines in the pipe"
	t_is "$(grep -c '^calls: flood line [0-9]* {"not":"an event"} filling the pipe$' "$UPFT_TMP/f.err")" \
		"$N" "flood $run: CMD's $N lines whole on stderr, none in the events"
done
t_like "$(cat "$UPFT_TMP/f.err")" "^upfront: $N events, 0 lost\$" "flood: summary"

# 2. the same for text lines
UPFRONT_BUFFER_KB=$FLOOD_KB "$UPFRONT" --stdio -x "$C" 'tick i' -- "$C" flood $N \
	2>"$UPFT_TMP/t.err" </dev/null |
	cat >"$UPFT_TMP/t.out"
t_is "$(grep -cE '^[0-9]+\.[0-9]{6} calls-O2/[0-9]+ tick i=[0-9]+$' "$UPFT_TMP/t.out")" "$N" \
	"text flood: $N whole event lines"
t_is "$(grep -vcE '^[0-9]+\.[0-9]{6} calls-O2/[0-9]+ tick i=[0-9]+$' "$UPFT_TMP/t.out")" 0 \
	"text flood: nothing else in the pipe"

# 3. -o FILE: the events go to FILE, CMD's stdout stays upfront's stdout
upft_run --json -o "$UPFT_TMP/o.json" -x "$C" 'tick i' -- "$C" flood 5000
t_is "$UPFT_RC" 0 "-o FILE: exit 0"
t_is "$(check_json "$UPFT_TMP/o.json")" "5000 0" "-o FILE: 5000 whole JSON lines in FILE"
t_is "$(printf '%s\n' "$UPFT_OUT" | grep -c '^calls: flood line')" 5000 \
	"-o FILE: CMD's 5000 lines on stdout"
t_unlike "$UPFT_OUT" '"probe"' "-o FILE: no event on stdout"
t_like "$UPFT_ERR" '^upfront: 5000 events, 0 lost$' "-o FILE: the summary on stderr"
upft_run -o "$UPFT_TMP/o.txt" -x "$C" 'tick i' -- "$C" flood 3
t_is "$(cat "$UPFT_TMP/o.txt")" "$(printf '%s\n' "$(sed -n 1p "$UPFT_TMP/o.txt")" | \
	grep -E '^0\.000000 calls-O2/[0-9]+ tick i=0$')
$(sed -n 2,3p "$UPFT_TMP/o.txt" | grep -E '^[0-9]+\.[0-9]{6} calls-O2/[0-9]+ tick i=[12]$')" \
	"-o FILE without --json: text lines"
echo stale >"$UPFT_TMP/o.txt"
upft_run -o "$UPFT_TMP/o.txt" -x "$C" 'tick i' -- "$C" flood 1
t_is "$(cat "$UPFT_TMP/o.txt" | wc -l)" 1 "-o FILE: an existing file is replaced"

# 4. -o errors: an unwritable path is bad input (exit 2, one line, nothing left installed);
#    -o outside trace mode
upft_run --json -o "$UPFT_TMP/no/such/dir/x" -x "$C" 'tick i' -- "$C" flood 1
t_is "$UPFT_RC" 2 "-o into a missing directory: exit 2"
t_like "$UPFT_ERR" "^upfront: cannot write -o $UPFT_TMP/no/such/dir/x: No such file" \
	"-o into a missing directory: says why"
t_is "$(printf '%s\n' "$UPFT_ERR" | grep -c .)" 1 "-o into a missing directory: one line"
upft_run -x "$C" -o "$UPFT_TMP/d" -D 'tick i'
t_is "$UPFT_RC" 2 "-o with -D: exit 2"
t_like "$UPFT_ERR" "^upfront: -o is only for trace mode" "-o with -D: says so"

# 5. one time base: seconds since the first event with microseconds, the first at 0.000000,
#    the same number in text and JSON
upft_run --json -x "$C" 'tick i' -- "$C" flood 50
t_like "$(printf '%s\n' "$UPFT_OUT" | head -1)" '^\{"time":0\.000000,' "JSON: the first event at 0.000000"
t_is "$(printf '%s\n' "$UPFT_OUT" | grep -cE '^\{"time":[0-9]+\.[0-9]{6},')" 50 \
	"JSON: time in seconds with 6 decimals"
upft_run --stdio -x "$C" 'tick i' -- "$C" flood 50
t_like "$(printf '%s\n' "$UPFT_OUT" | head -1)" '^0\.000000 calls-O2/' "text: the first event at 0.000000"
t_is "$(printf '%s\n' "$UPFT_OUT" | grep -cE '^[0-9]+\.[0-9]{6} calls-O2/[0-9]+ tick ')" 50 \
	"text: time in seconds with 6 decimals"
t_is "$(printf '%s\n' "$UPFT_OUT" | awk '{ print $1 }' | sort -c -n 2>&1 | head -1)" "" \
	"text: times in order"
t_done
