#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# stack.sh - --stack: user stack of each event, symbolized, in text and JSON
#
# c/orders calls main -> run_once -> process_order (tests/targets/c/orders.c). -O0 keeps the
# frame pointer and the probe is after the prologue: the kernel's frame-pointer walk finds
# every caller. An -O2 copy built here with -fno-omit-frame-pointer (run_once is inlined into
# main there, and shown as inlined before main, as perf script --inline does) is probed at
# process_order's first instruction, before the frame is pushed: the caller comes from $stack0. The plain -O2 build has no frame pointers: $stack0 still
# gives the caller. (3 and 4 are the kernel's walk, --stack=fp; the rest the default, dwarf.)
. "$(dirname "$0")/lib.sh"
upft_need_root

O0=$UPFT_TARGETS/c/orders-O0
O2=$UPFT_TARGETS/c/orders-O2
[ -x "$O0" ] && [ -x "$O2" ] || t_bail "targets not built (tests/targets/build.sh $UPFT_TARGETS)"
FP=$UPFT_TMP/orders-O2-fp
gcc -g -O2 -fno-omit-frame-pointer -o "$FP" "$UPFT_SRCDIR/tests/targets/c/orders.c" ||
	t_bail "gcc -O2 -fno-omit-frame-pointer"

# stack_of JSON N - the N-th event's stack, frames joined with " "
stack_of() {
	printf '%s\n' "$1" | python3 -c '
import json, sys
n = int(sys.argv[1])
evs = [json.loads(l) for l in sys.stdin if l.startswith("{\"time\"")]
print(" ".join(evs[n - 1].get("stack", ["(no stack key)"])) if n <= len(evs) else "(no event)")
' "$2"
}

# 1. -O0, JSON: process_order <- run_once <- main
upft_run --json --stack -x "$O0" 'process_order o->id' -- "$O0"
t_is "$UPFT_RC" 0 "-O0 --stack exits 0"
t_is "$(upft_json_count "$UPFT_OUT")" 2 "-O0: two events"
st=$(stack_of "$UPFT_OUT" 1)
t_like "$st" '^process_order\+0x[0-9a-f]+ run_once\+0x[0-9a-f]+ main\+0x[0-9a-f]+( |$)' \
	"-O0: stack is process_order, run_once, main"
# the two calls come from different places in run_once
st2=$(stack_of "$UPFT_OUT" 2)
t_ok "$([ "$(echo "$st" | cut -d' ' -f2)" != "$(echo "$st2" | cut -d' ' -f2)" ]; echo $?)" \
	"-O0: the two calls have different return addresses in run_once"

# 2. no --stack: no stack key
upft_run --json -x "$O0" 'process_order o->id' -- "$O0"
t_unlike "$UPFT_OUT" '"stack"' "without --stack there is no stack key"

# 3. an entry probe with frame pointers: the caller from $stack0, then the walk
upft_run -x "$FP" -D 'process_order o->id'
t_like "$UPFT_OUT" ":0x0*$(nm "$FP" | awk '$3 == "process_order" { sub(/^0+/, "", $1); print $1 }') " \
	"-O2 -fno-omit-frame-pointer: the probe is at process_order's first instruction"
# REPEAT 2, 300 ms apart: the process lives long enough for its maps (libc) to be read
upft_run --json --stack=fp -x "$FP" 'process_order o->id' -- "$FP" 2 300
st=$(stack_of "$UPFT_OUT" 1)
t_like "$st" '^process_order\+0x0 run_once main\+0x[0-9a-f]+ __libc_start_call_main\+0x[0-9a-f]+' \
	"-O2 frame pointers, entry probe: process_order+0x0, run_once inlined in main (\$stack0), libc's caller"

# 4. no frame pointers at all: $stack0 still names the caller
upft_run --json --stack=fp -x "$O2" 'process_order o->id' -- "$O2"
st=$(stack_of "$UPFT_OUT" 1)
t_like "$st" '^process_order\+0x0 run_once main\+0x[0-9a-f]+' "-O2 without frame pointers: the caller from \$stack0"

# 5. text: frames indented under the event line, perf script style, the file in parentheses
upft_run --stdio --stack -x "$FP" 'process_order o->id' 'process_batch n' -- "$FP" 1 300
t_like "$UPFT_OUT" '^[0-9]+\.[0-9]{6} orders-O2-fp/[0-9]+ process_batch n=2$' "text: the event line"
# (+0x2: the jle after a test, which the kernel emulates; issue 10)
t_like "$UPFT_OUT" "^	 *[0-9a-f]+ process_batch\+0x[0-9a-f]+ \($FP\)$" "text: the probed frame with its file"
t_like "$UPFT_OUT" "^	 *[0-9a-f]+ main\+0x[0-9a-f]+ \($FP\)$" "text: main's frame"
t_like "$UPFT_OUT" '^	 *[0-9a-f]+ __libc_start_call_main\+0x[0-9a-f]+ \(/.*libc\.so\.6\)$' \
	"text: a frame in libc, symbolized from the library"
t_like "$UPFT_OUT" "^	 *[0-9a-f]+ run_once \(inlined\)$" "text: run_once, inlined in main, with no file"
t_is "$(printf '%s\n' "$UPFT_OUT" | grep -c '^	')" 18 \
	"text: five frames down to _start and run_once inlined under each of three events"

# 6. a busy multi-CPU stream: every event has its stack (records merged, stacks attached)
upft_run --json --stack -x "$O0" 'process_order o->id' -- "$O0" 2000
n=$(upft_json_count "$UPFT_OUT")
bad=$(printf '%s\n' "$UPFT_OUT" | grep '^{"time"' | grep -vc '"stack":\["process_order+0x[0-9a-f]*","run_once+')
t_is "$bad" 0 "busy: every event carries its own stack"
if [ "$(upft_kernel buffer_percent)" = yes ]; then
	t_is "$n" 4000 "busy: 4000 events"
	t_like "$UPFT_ERR" 'upfront: 4000 events, 0 lost' "busy: summary"
else
	# read on a timer (no buffer_percent to wake the reader at a fill level): a burst of
	# 4000 ~1 KB events (4 MB in a few ms) outruns it; what it loses is counted
	shown=$(printf '%s\n' "$UPFT_OUT" | grep -c '^{"time"')
	lost=$(printf '%s\n' "$UPFT_ERR" | sed -n "s/^upfront: $shown events, \([0-9]*\) lost$/\1/p")
	t_is "$((shown + ${lost:-4000}))" 4000 "busy: events shown + lost = 4000 (read on a timer)"
fi

# 7. the kernel's buffer overflows: upfront is stopped (16 KiB a CPU) while a burst of 40000
#    calls runs (sh starts it after the first 2 calls, 1.5 s later); the lost count is of
#    events: an event and its stack record count as one (--stack=fp: it was both records),
#    the task records (sh's forks, the execs' renames) not at all (a ring of their own); an
#    event whose stack record alone was lost shows no frames and says so, and no event gets
#    another's stack
scale=${UPFT_TIMEOUT_SCALE:-1}
for how in fp dwarf; do
	UPFRONT_BUFFER_KB=16 "$UPFRONT" --json --stack=$how -x "$O0" 'process_order o->id' \
		-- sh -c "$O0 1; sleep $((2 * scale)); exec $O0 20000" \
		>"$UPFT_TMP/of.json" 2>"$UPFT_TMP/of.err" </dev/null &
	P=$!
	for ((i = 0; i < 100 * scale; i++)); do
		[ "$(grep -c '^{"time"' "$UPFT_TMP/of.json")" -ge 2 ] && break
		sleep 0.1
	done
	kill -STOP "$P"
	sleep $((4 * scale))
	kill -CONT "$P"
	wait "$P"
	t_is "$?" 0 "overflow --stack=$how: exit 0"
	out=$(cat "$UPFT_TMP/of.json")
	shown=$(printf '%s\n' "$out" | grep -c '^{"time"')
	lost=$(sed -n "s/^upfront: $shown events, \([0-9]*\) lost$/\1/p" "$UPFT_TMP/of.err")
	t_ok "$([ "${lost:-0}" -gt 0 ]; echo $?)" "overflow --stack=$how: events lost (${lost:-none})"
	t_is "$((shown + ${lost:-40002}))" 40002 "overflow --stack=$how: shown + lost = 40002 calls"
	t_is "$(printf '%s\n' "$out" | grep '^{"time"' | grep -v '"stack":\["process_order+0x[0-9a-f]*","run_once+' |
		grep -vc '"stack":\[\],"stack_cut":"lost"')" 0 \
		"overflow --stack=$how: each event has its own stack, or none and \"stack_cut\":\"lost\""
	t_unlike "$(cat "$UPFT_TMP/of.err")" "task records lost" "overflow --stack=$how: no task record lost"
done
t_done
