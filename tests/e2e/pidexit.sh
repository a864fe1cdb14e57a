#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# pidexit.sh - -p follows the children the process forks and stops once every traced process
# has exited, saying so (it sat until Ctrl-C: one run 604 s); --no-inherit: only the
# processes named, and stop once they have exited
. "$(dirname "$0")/lib.sh"
upft_need_root

C=$UPFT_TARGETS/c/calls-O2
[ -x "$C" ] || t_bail "targets not built (tests/targets/build.sh $UPFT_TARGETS)"

TPIDS=()
pidexit_cleanup() {
	local p
	for p in "${TPIDS[@]}"; do
		kill -9 "$p" 2>/dev/null
	done
	upft_cleanup
}
trap pidexit_cleanup EXIT

# start_family OUT - calls family 3 20: the parent walk(3); sets TP
start_family() {
	FOUT=$1
	"$C" family 3 20 >"$1" 2>/dev/null </dev/null &
	TP=$!
	TPIDS+=("$TP")
	upft_wait_exec "$TP" "$C"
}

# fork_child - the family's parent forks a child calling walk(4), now that it is traced;
# sets CP
fork_child() {
	kill -USR1 "$TP"
	upft_until 10 grep -q '^child ' "$FOUT"
	CP=$(sed -n 's/^child //p' "$FOUT")
	TPIDS+=("$CP")
}

# start_upfront OUT ARGS... - upfront in the background, until it records; sets U
start_upfront() {
	local out=$1
	shift
	"$UPFRONT" "$@" >"$out" 2>"$out.err" </dev/null &
	U=$!
	upft_wait_tracing "$U" || t_fail "upfront $* started" "$(cat "$out.err")"
}

# gone SECONDS - wait until upfront $U has exited; its status in RC
gone() {
	upft_until "$1" sh -c "! kill -0 $U 2>/dev/null"
	wait "$U"
	RC=$?
}

# -p PID traces the process and the children it forks while traced (set_event_pid with
# options/event-fork): one forked before is a process of its own, as perf record -p has it

# 1. one process: stops within 3 s of its exit, says so, exit 0
"$C" loop 3 20 >/dev/null 2>&1 </dev/null &
TP=$!
TPIDS+=("$TP")
upft_wait_exec "$TP" "$C"
out=$UPFT_TMP/one
start_upfront "$out" --stdio -p "$TP" -x "$C" 'walk n'
upft_until 10 grep -q 'walk n=3' "$out"
t_ok $? "-p: the process's calls are seen"
kill "$TP"
wait "$TP" 2>/dev/null
start=$(date +%s%N)
gone 10
ms=$((($(date +%s%N) - start) / 1000000))
t_is "$RC" 0 "-p: upfront exits 0 once the process has exited"
# (times UPFT_TIMEOUT_SCALE where the CPU is emulated: scripts/arm64/guest-tests)
[ "$ms" -lt $((3000 * ${UPFT_TIMEOUT_SCALE:-1})) ]
t_ok $? "-p: within 3 s of the exit (${ms} ms)"
t_like "$(cat "$out.err")" "^upfront: the traced process has exited \\(pid $TP\\)\$" \
	"-p: an exit line says so"
t_like "$(cat "$out.err")" '^upfront: [0-9]+ events, 0 lost$' "-p: then the events line"

# 2. -p follows the children: the child's calls are seen, and upfront runs on while the
#    child does after its parent exited; it stops once the child has exited too
start_family "$UPFT_TMP/fam"
out=$UPFT_TMP/follow
start_upfront "$out" --json -p "$TP" -x "$C" 'walk n'
fork_child
upft_until 10 grep -q '"n":4' "$out"
t_ok $? "-p: the forked child's calls are seen (walk n=4)"
kill "$TP"
wait "$TP" 2>/dev/null
before=$(grep -c '"n":4' "$out")
upft_until 10 sh -c "[ \$(grep -c '\"n\":4' '$out') -gt $((before + 5)) ]"
t_ok $? "-p: the parent has exited, the child's calls are still shown"
kill -0 "$U" 2>/dev/null
t_ok $? "-p: upfront runs on while the child does"
kill "$CP"
gone 10
t_is "$RC" 0 "-p: once the child has exited too, upfront exits 0"
t_like "$(cat "$out.err")" "^upfront: the traced process has exited \\(pid $TP\\)\$" \
	"-p: the exit line"

# 3. --no-inherit: only the process named; stop when it has exited, its child running on
start_family "$UPFT_TMP/fam2"
out=$UPFT_TMP/noinherit
start_upfront "$out" --json --no-inherit -p "$TP" -x "$C" 'walk n'
fork_child
upft_until 10 sh -c "[ \$(grep -c '\"n\":3' '$out') -ge 20 ]"
t_ok $? "--no-inherit: the parent's calls are seen"
t_is "$(grep -c '"n":4' "$out")" 0 "--no-inherit: none of the child's"
kill "$TP"
wait "$TP" 2>/dev/null
gone 10
t_is "$RC" 0 "--no-inherit: upfront exits 0 once the process named has exited"
kill -0 "$CP" 2>/dev/null
t_ok $? "--no-inherit: ... while its child runs on"
kill "$CP" 2>/dev/null

# 4. CMD with --no-inherit: CMD's own events only
upft_run --json --no-inherit --duration 1 -x "$C" 'walk n' -- "$C" family 3 20 now
n3=$(grep -c '"n":3' "$UPFT_TMP/out")
n4=$(grep -c '"n":4' "$UPFT_TMP/out")
[ "$n3" -gt 0 ] && [ "$n4" -eq 0 ]
t_ok $? "-- CMD --no-inherit: CMD's calls ($n3), none of its child's ($n4)"
CP=$(sed -n 's/^child //p' "$UPFT_TMP/err" | head -1)
[ -n "$CP" ] && kill "$CP" 2>/dev/null

t_done
