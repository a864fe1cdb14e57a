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
"$UPFRONT" --json -x "$C" 'walk n' -- \
	sh -c '"$1" walk 26 >/dev/null 2>&1; : >"$2"; exec sleep 600' sh "$C" "$UPFT_TMP/walked" \
	2>"$UPFT_TMP/err" </dev/null |
	(while [ ! -e "$UPFT_TMP/go" ]; do sleep 0.1; done; cat >"$UPFT_TMP/out") &
upft_until 10 sh -c "pgrep -xf '$UPFRONT --json -x $C walk n -- sh -c .*' >/dev/null" ||
	t_bail "upfront did not start"
up=$(pgrep -xf "$UPFRONT --json -x $C walk n -- sh -c .*" | head -1)
upft_until $((60 * scale)) test -e "$UPFT_TMP/walked" || t_bail "walk(26) did not end"
# the largest RSS while upfront queues what the kernel's ring still holds
peak=0
for _ in $(seq $((10 * scale))); do
	r=$(rss "$up")
	[ -n "$r" ] && [ "$r" -gt "$peak" ] && peak=$r
	sleep 0.2
done
: >"$UPFT_TMP/go"
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
