#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# memory.sh - the stream's slot pool gives its memory back when a burst is over: a reader
# that stalls for 3 s makes the queue grow by ~10 MB (walk(26): 392835 events); once the
# reader has caught up and the backlog stays small, upfront's RSS falls back (it stayed at
# the largest burst's for the rest of the session). bench/soak-rss.sh is the long version.
. "$(dirname "$0")/lib.sh"
upft_need_root

C=$UPFT_TARGETS/c/calls-O2
[ -x "$C" ] || t_bail "targets not built (tests/targets/build.sh $UPFT_TARGETS)"

rss() { sed -n 's/^VmRSS:[[:space:]]*\([0-9]*\) kB$/\1/p' "/proc/$1/status" 2>/dev/null; }

"$UPFRONT" --json -x "$C" 'walk n' -- sh -c '"$1" walk 26 >/dev/null 2>&1; exec sleep 30' sh "$C" \
	2>"$UPFT_TMP/err" </dev/null | (sleep 3; cat >"$UPFT_TMP/out") &
upft_until 10 sh -c "pgrep -xf '$UPFRONT --json -x $C walk n -- sh -c .*' >/dev/null" ||
	t_bail "upfront did not start"
up=$(pgrep -xf "$UPFRONT --json -x $C walk n -- sh -c .*" | head -1)
sleep 2.5
peak=$(rss "$up")
# the reader catches up after 3 s; the pool is trimmed about a second after that
low=$peak
for _ in $(seq 100); do
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
