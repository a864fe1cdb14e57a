#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# replay.sh - --replay FILE reads a run saved with --json (-o FILE) back: the same summary as
# the run printed, the events as text or JSON again; as an unprivileged user (no tracefs, no
# root); a file that is no saved run is one clear line
. "$(dirname "$0")/lib.sh"
upft_need_root

C=$UPFT_TARGETS/c/calls-O2
O=$UPFT_TARGETS/c/orders-O0
upft_need_targets "$C" "$O"
NOBODY=(setpriv --reuid=65534 --regid=65534 --clear-groups)

# 1. a run saved with -o FILE --json --summary, its summary printed as text too
run=$UPFT_TMP/run.json
upft_run --json --summary -o "$run" -x "$C" 'job id usec' 'job%return $retval' -- \
	"$C" threads 2 5
t_is "$UPFT_RC" 0 "the run: exit 0"
live=$(grep '^{"summary"' "$run")

# replayed as uid 65534, the file on standard input (its directory is root's)
"${NOBODY[@]}" "$UPFRONT" --replay - --summary-only --json <"$run" >"$UPFT_TMP/r1" \
	2>"$UPFT_TMP/r1.err"
t_is "$?" 0 "--replay as uid 65534: exit 0"
t_is "$(cat "$UPFT_TMP/r1")" "$live" "--replay --summary-only --json: the run's own summary, byte for byte"
t_is "$(cat "$UPFT_TMP/r1.err")" "upfront: replayed 20 events, 0 lost" "--replay: says what it read"

"${NOBODY[@]}" "$UPFRONT" --replay - --summary-only <"$run" >"$UPFT_TMP/r2" 2>/dev/null
r2=$(cat "$UPFT_TMP/r2")
t_like "$r2" '^  id: 10 values, min 0, avg 502, max 1004$' "text summary: id's min, avg, max"
t_like "$r2" '^    \[512, 1K\)              5 \|@{52}\|$' "text summary: id's histogram"
t_like "$r2" '^  duration of job: 10 calls, min [0-9.]+ms, .* p99 [0-9.]+ms$' \
	"text summary: the durations and their percentiles"

# the events again, as text and as JSON
upft_run --replay "$run" --stdio
t_is "$(printf '%s\n' "$UPFT_OUT" | grep -c ' job id=')" 10 "--replay --stdio: the 10 entries"
t_is "$(printf '%s\n' "$UPFT_OUT" | grep -Ec ' job__return retval=[0-9]+ duration=[0-9.]+ms$')" 10 \
	"--replay --stdio: the 10 returns with their durations"
upft_run --replay "$run" --json
t_is "$(printf '%s\n' "$UPFT_OUT" | python3 -c '
import json, sys
a = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{\"time\"")]
b = [json.loads(l) for l in sys.stdin]
key = lambda e: (e["time"], e["pid"], e["tid"], e["probe"], e["args"], e.get("duration"))
print(len(b), [key(e) for e in a] == [key(e) for e in b])' "$run")" "20 True" \
	"--replay --json: the same 20 events (time, pid, tid, probe, args, duration)"

# 2. strings, enums, faults: top values; null stays a fault
upft_run --json -o "$UPFT_TMP/o.json" -x "$O" 'process_order o->id o->customer->name o->tier' -- "$O"
upft_run --replay "$UPFT_TMP/o.json" --summary-only
t_like "$UPFT_OUT" '^  name: 2 values, 2 distinct$' "strings: 2 distinct values"
t_like "$UPFT_OUT" '^           1  "alice"$' "strings: alice once"
t_like "$UPFT_OUT" '^           1  "TIER_GOLD"$' "an enum's name comes back as a string"

# 3. a run whose command failed ends with its exit line: skipped
upft_run --json -o "$UPFT_TMP/fail.json" -x "$C" 'walk n' -- sh -c "$C walk 2; exit 3"
t_like "$(tail -1 "$UPFT_TMP/fail.json")" '^\{"exit":\{.*"status":3\}\}$' "a failed command's run ends with its exit line"
upft_run --replay "$UPFT_TMP/fail.json" --stdio
t_is "$UPFT_RC" 0 "--replay of it: exit 0"
t_is "$(printf '%s\n' "$UPFT_OUT" | grep -c ' walk n=')" 3 "--replay of it: its 3 events"

# 4. not a saved run: one line naming the file and the line
printf '{"time":0,"probe":"a","args":{}}\nnot json\n' >"$UPFT_TMP/bad.json"
upft_run --replay "$UPFT_TMP/bad.json" --stdio
t_is "$UPFT_RC" 2 "a line that is no JSON: exit 2"
t_like "$UPFT_ERR" "^upfront: .*bad.json:2: not JSON \\(at byte 1\\)" "... names the file, line and byte"
upft_run --replay "$UPFT_TMP/nosuch.json"
t_is "$UPFT_RC" 2 "a missing file: exit 2"
t_like "$UPFT_ERR" 'cannot read .*nosuch.json: No such file or directory' "... says so"
upft_run --replay "$run" -x "$C" 'job'
t_is "$UPFT_RC" 2 "--replay with a PROBE: exit 2"

t_done
