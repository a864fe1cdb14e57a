#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# memory.sh - the stream's slot pool gives its memory back when a burst is over: a reader
# that stalls through a burst makes the queue grow by ~10 MB (walk(26): 392835 events); once the
# reader has caught up and the backlog stays small, upfront's RSS falls back (it stayed at
# the largest burst's for the rest of the session). bench/soak-rss.sh is the long version.
. "$(dirname "$0")/lib.sh"
upft_need_root

C=$UPFT_TARGETS/c/calls-O2
[ -x "$C" ] || t_bail "targets not built (tests/targets/build.sh $UPFT_TARGETS)"

rss() { sed -n 's/^VmRSS:[[:space:]]*\([0-9]*\) kB$/\1/p' "/proc/$1/status" 2>/dev/null; }

# The reader stalls until the traced program has made its burst (walk(26) takes 0.4 s here, far
# longer in a qemu TCG guest: a stall of a fixed 3 s there ended before the burst, and the RSS
# at 2.5 s was the start's), then catches up
scale=${UPFT_TIMEOUT_SCALE:-1}
upft_stalled_burst "$UPFT_TMP/out" "$C" 26 --json 2>"$UPFT_TMP/err"
up=$UPFT_PID
# the largest RSS while upfront queues what the kernel's ring still holds
peak=0
for _ in $(seq $((10 * scale))); do
	r=$(rss "$up")
	[ -n "$r" ] && [ "$r" -gt "$peak" ] && peak=$r
	sleep 0.2
done
upft_burst_read
# the reader catches up; the pool is trimmed about a second after that
low=$peak
for _ in $(seq $((100 * scale))); do
	sleep 0.2
	r=$(rss "$up")
	[ -n "$r" ] && [ "$r" -lt "$low" ] && low=$r
	[ "$low" -lt $((peak - 5000)) ] && break
done
t_ok $((low < peak - 5000 ? 0 : 1)) "RSS falls after the burst: ${peak} kB at the stall, ${low} kB after"
kill -INT "$up"
wait
t_is "$(wc -l <"$UPFT_TMP/out")" 392835 "every event written"
t_done
