#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# durations.sh - FUNC and FUNC%return paired into calls: recursion and nesting (C, -O0 and
# -O2), threads, calls deeper than the kernel's 64 pending return probes, Go goroutines that
# move between threads and stacks that move as they grow, Go panics; text and JSON
. "$(dirname "$0")/lib.sh"
upft_need_root

CHECK=$UPFT_SRCDIR/tests/e2e/calls-check.py
GO=$UPFT_TARGETS/go/calls
for b in c/calls-O0 c/calls-O2 go/calls; do
	[ -x "$UPFT_TARGETS/$b" ] || t_bail "targets not built (tests/targets/build.sh $UPFT_TARGETS)"
done

# calls FILE ARGS... - run upfront --json with ARGS into FILE; exit status in RC
calls() {
	local out=$1
	shift
	timeout -s INT -k 5 120 "$UPFRONT" --json "$@" >"$out" 2>"$out.err" </dev/null
	RC=$?
}

# check DESC FILE SPEC... - calls-check.py's verdict; its first line goes to CHECKED
check() {
	local desc=$1 res
	shift
	res=$(python3 "$CHECK" "$@" 2>&1)
	if [ $? -eq 0 ]; then
		t_pass "$desc"
	else
		t_fail "$desc" "$res"
	fi
	CHECKED=$(printf '%s\n' "$res" | head -1)
}

# 1. recursion like fib: walk(12) makes 2*fib(13)-1 = 465 calls, nested up to 12 deep; each
#    return pairs with its own entry and lasts at least as long as its callees together
for o in O0 O2; do
	C=$UPFT_TARGETS/c/calls-$o
	calls "$UPFT_TMP/walk$o" -x "$C" 'walk n' 'walk%return $retval' -- "$C" walk 12
	t_is "$RC" 0 "walk -$o: exit 0"
	check "walk -$o: every return paired with its entry, >= its callees" "$UPFT_TMP/walk$o" \
		'walk:a["n"]' 'walk__return:a["retval"]' --nest
	t_is "$CHECKED" "calls 465 returns 465" "walk -$o: 465 calls, 465 returns"
done
# the same with the entry probe past the prologue (UPFRONT_PLACEMENT=plain: -O0's parameters
# read from their stack slots there): the entry's own stack pointer comes from the CFA's rule
# at the probe, not the probe's %sp (arm64: "sp + 32" past its stp; read as the caller's entry
# before, a return popped its caller's entry too)
C=$UPFT_TARGETS/c/calls-O0
UPFRONT_PLACEMENT=plain calls "$UPFT_TMP/walkp" -x "$C" 'walk n' 'walk%return $retval' -- \
	"$C" walk 12
check "walk -O0 probed past its prologue: every return paired with its entry" \
	"$UPFT_TMP/walkp" 'walk:a["n"]' 'walk__return:a["retval"]' --nest
t_is "$CHECKED" "calls 465 returns 465" "walk -O0 past its prologue: 465 calls, 465 returns"

# 2. nesting across functions: outer -> middle (x2) -> inner (x3), 5 times
C=$UPFT_TARGETS/c/calls-O2
calls "$UPFT_TMP/nest" -x "$C" 'outer k' 'outer%return $retval' 'middle k' \
	'middle%return $retval' 'inner k' 'inner%return $retval' -- "$C" nest 5
check "nest: outer, middle and inner paired, each >= its callees" "$UPFT_TMP/nest" \
	'outer:a["k"]' 'outer__return:a["retval"]' 'middle:a["k"]' 'middle__return:a["retval"]' \
	'inner:a["k"]' 'inner__return:a["retval"]' --nest
t_is "$CHECKED" "calls 45 returns 45" "nest: 5 + 10 + 30 calls"

# 3. deeper than the kernel's 64 pending return probes per thread: the 37 innermost calls
#    return unseen; the 64 that do are paired with their own entries (by stack height), not
#    with the innermost pending ones
calls "$UPFT_TMP/down" -x "$C" 'down n' 'down%return $retval' -- "$C" down 100
check "down 100: each of the returns paired with its own entry" "$UPFT_TMP/down" \
	'down:a["n"]' 'down__return:a["retval"]' --unreturned
t_is "$CHECKED" "calls 101 returns 64" "down 100: 101 calls, the kernel reports 64 returns"

# 4. threads: 4 threads, 5 calls each of job(id, usec), which sleeps usec; a return paired
#    with another thread's entry would be shorter than its sleep
calls "$UPFT_TMP/threads" -x "$C" 'job id usec' 'job%return $retval' -- "$C" threads 4 5
check "threads: each return paired with its thread's entry" "$UPFT_TMP/threads" \
	'job:a["id"]' 'job__return:a["retval"]'
t_is "$CHECKED" "calls 20 returns 20" "threads: 20 calls"
t_is "$(python3 -c '
import json, sys
sleep, bad = {}, 0
for l in open(sys.argv[1]):
    e = json.loads(l)
    if e["probe"] == "job":
        sleep[e["args"]["id"]] = e["args"]["usec"] / 1e6
    elif e["duration"] < sleep[e["args"]["retval"]]:
        bad += 1
print(bad, len(set(e["tid"] for e in map(json.loads, open(sys.argv[1])))))' "$UPFT_TMP/threads")" \
	"0 4" "threads: no call shorter than its sleep, on 4 threads"

# 5. text: duration=... on returns only
calls "$UPFT_TMP/text" -x "$C" 'walk n' 'walk%return $retval' -- "$C" walk 3
"$UPFRONT" --stdio -x "$C" 'walk n' 'walk%return $retval' -- "$C" walk 3 \
	>"$UPFT_TMP/text" 2>/dev/null </dev/null
t_is "$(grep -cE '^[0-9]+\.[0-9]{6} calls-O2/[0-9]+ walk__return retval=[0-9]+ duration=[0-9]+(\.[0-9]{1,3})?(ns|us|ms|s)$' "$UPFT_TMP/text")" \
	5 "text: 5 returns with duration=N(ns|us|ms|s)"
t_is "$(grep -c 'duration=' "$UPFT_TMP/text")" 5 "text: entries have no duration"

# 6. a return probe alone has nothing to pair with: no duration
calls "$UPFT_TMP/alone" -x "$C" 'walk%return $retval' -- "$C" walk 3
t_is "$(grep -c '"duration"' "$UPFT_TMP/alone") $(grep -c '"probe":"walk__return"' "$UPFT_TMP/alone")" \
	"0 5" "a return probe without its entry probe: no duration"

# 7. Go: 6 goroutines, 3 calls each of work(), which yields and sleeps inside: goroutines
#    come back on other threads (GOMAXPROCS 4) between the entry and the return
calls "$UPFT_TMP/gowork" -x "$GO" 'main.work id ms' 'main.work%return $retval' -- "$GO" work 6 3
t_is "$RC" 0 "go work: exit 0"
check "go work: each return paired with its goroutine's entry" "$UPFT_TMP/gowork" \
	'work:a["id"]' 'work__return:a["r0"]'
t_is "$CHECKED" "calls 18 returns 18" "go work: 18 calls"
moved=$(python3 -c '
import json, sys
tid = {}
moved = 0
for l in open(sys.argv[1]):
    e = json.loads(l)
    if e["probe"] == "work":
        tid[e["args"]["id"]] = e["tid"]
    elif tid[e["args"]["r0"]] != e["tid"]:
        moved += 1
print(moved)' "$UPFT_TMP/gowork")
t_ok "$([ "${moved:-0}" -gt 0 ]; echo $?)" "go work: $moved calls returned on another thread than they began"

# 8. Go: recursion 40 deep with 2 KiB frames in 3 goroutines: their stacks are copied to
#    bigger ones during the calls, and every return still pairs with its own entry
calls "$UPFT_TMP/godeep" -x "$GO" 'main.deep id n' 'main.deep%return $retval' -- "$GO" deep 3 40
check "go deep: returns paired across stack growth" "$UPFT_TMP/godeep" \
	'deep:a["id"]*1000+a["n"]' 'deep__return:a["r0"]'
t_is "$CHECKED" "calls 123 returns 123" "go deep: 123 calls"

# 9. Go: a panic unwinds rec(i, 0) and rec(i, 1) without a return; rec(i, 2) recovers and
#    returns: it pairs with its own entry, not with the unwound ones
calls "$UPFT_TMP/gopanic" -x "$GO" 'main.rec i n' 'main.rec%return $retval' -- "$GO" panics 5
check "go panics: the recovering call pairs with its own entry" "$UPFT_TMP/gopanic" \
	'rec:a["i"]*1000+a["n"]' 'rec__return:a["r"]' --unreturned
t_is "$CHECKED" "calls 20 returns 10" "go panics: 20 calls, 10 returns"
t_done
