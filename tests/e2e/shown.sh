#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# shown.sh - what users see, where a plausible one-line bug went unseen by every other test
# (scripts/mutation-check applies each such bug and expects this test to fail):
#   - a string exactly --string-size bytes long is whole: no cut marker "..." in the text line
#     (JSON has no marker, and the cases check JSON)
#   - uint8_t *, unsigned char * and signed char * are addresses; only char * is text
#   - the process name is escaped in --stdio lines (a binary named with ESC)
#   - lost events reach --metrics (upfront_lost_events_total = the summary's lost)
. "$(dirname "$0")/lib.sh"
upft_need_root
command -v curl >/dev/null 2>&1 || t_bail "curl is not installed"

C=$UPFT_TARGETS/c/calls-O2
B=$UPFT_TARGETS/cpp/bases-O0
[ -x "$C" ] && [ -x "$B" ] || t_bail "targets not built (tests/targets/build.sh $UPFT_TARGETS)"

# 1. --string-size 4: "tiny" is 4 bytes, whole; "a label ..." and "a string ..." are cut
upft_run --stdio --string-size 4 -x "$B" 'vb::greet s l.name' -- "$B"
t_is "$(grep -o 'greet .*' <<<"$UPFT_OUT")" 'greet s="hi" name="a la"...
greet s="a st"... name="tiny"' "--string-size 4: a 4-byte string whole, longer ones cut with ..."

# 2. pointers to bytes: the same pointer as uint8_t *, unsigned char *, signed char *, char *
upft_run --stdio -x "$C" 'bytes u8p ucp scp cp' -- "$C" text AB
t_like "$UPFT_OUT" ' bytes u8p=(0x[0-9a-f]+) ucp=\1 scp=\1 cp="AB"$' \
	"uint8_t *, unsigned char *, signed char * are addresses, char * is text"
upft_run --json -x "$C" 'bytes u8p ucp scp cp' -- "$C" text AB
t_like "$UPFT_OUT" '"args":\{"u8p":("0x[0-9a-f]+"),"ucp":\1,"scp":\1,"cp":"AB"\}' \
	"JSON: the same"

# 3. a process named with ESC: escaped in the text line
E=$UPFT_TMP/$'esc\x1b[31mx'
cp "$C" "$E" || t_bail "cannot copy $C"
upft_run --stdio -x "$E" 'tick i' -- "$E" exit 0
t_like "$UPFT_OUT" '^[0-9.]+ esc\\e\[31mx/[0-9]+ tick i=0$' "--stdio: the process name escaped"
t_is "$(grep -c $'\x1b' <<<"$UPFT_OUT")" 0 "--stdio: no raw ESC"

# 4. lost events in --metrics: a tiny queue whose output stalls until walk(27)'s 635621 calls
#    are made loses most of them (a fixed rate does not: in a qemu TCG guest the reader of a
#    file kept up with the slowed program and lost none)
scale=${UPFT_TIMEOUT_SCALE:-1}
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
trap 'kill -INT "$UPFT_PID" 2>/dev/null; wait; upft_cleanup' EXIT
UPFRONT_QUEUE_PAGES=4 upft_stalled_burst "$UPFT_TMP/q.out" "$C" 27 --stdio \
	--metrics "127.0.0.1:$port" 2>"$UPFT_TMP/q.err"
up=$UPFT_PID
upft_burst_read
ev= lost=
for _ in $(seq $((300 * scale))); do
	sleep 0.2
	b=$(curl -s --max-time 5 "http://127.0.0.1:$port/metrics")
	ev=$(sed -n 's/^upfront_events_total{probe="walk"} //p' <<<"$b")
	lost=$(sed -n 's/^upfront_lost_events_total{cpu="[0-9]*"} //p' <<<"$b" |
		awk '{ s += $1 } END { if (NR) printf "%.0f\n", s }')
	[ -n "$ev" ] && [ $((ev + ${lost:-0})) -ge 635621 ] && break
done
kill -INT "$up"
wait
sum=$(sed -n 's/^upfront: [0-9]* events, \([0-9]*\) lost$/\1/p' "$UPFT_TMP/q.err")
t_ok $((${lost:-0} > 0 ? 0 : 1)) "--metrics: lost events counted (${lost:-0})"
t_is "${lost:-0}" "${sum:-?}" "--metrics: upfront_lost_events_total is the summary's lost"
t_done
