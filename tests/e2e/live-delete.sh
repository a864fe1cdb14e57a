#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# live-delete.sh - a live session's events are deleted by upfront -d only when asked by the
# session's exact group name, and -d says it did; the session notices at once, says so in one
# line and stops with status 1 (it went on, "0 lost", exit 0, for calls it no longer saw).
. "$(dirname "$0")/lib.sh"
upft_need_root

C=$UPFT_TARGETS/c/calls-O2
[ -x "$C" ] || t_bail "targets not built (tests/targets/build.sh $UPFT_TARGETS)"

"$UPFRONT" --stdio -x "$C" 'walk n' -- "$C" loop 8 2 >"$UPFT_TMP/s.out" 2>"$UPFT_TMP/s.err" \
	</dev/null &
up=$!
upft_wait_tracing "$up" || t_bail "the session did not start"
upft_until 10 test -s "$UPFT_TMP/s.out" || t_bail "no event from the session"

# a glob never takes a running session's events (this glob matches our session's group only:
# its last digit as a class, so no other session's group)
g="upfront_${up%?}[${up: -1}]"
upft_run -d "$g:*"
t_is "$UPFT_RC" 2 "-d '$g:*' (a glob): exit 2, nothing of the live session removed"
t_like "$UPFT_ERR" "a running session's events \\(upfront_$up\\) are deleted only by its exact group: upfront -d 'upfront_$up:\\*'" \
	"-d with a glob says how to delete a running session's events"
t_is "$(grep -c "^[pr]:upfront_$up/walk " "$UPFT_TRACEFS/uprobe_events")" 1 \
	"the glob left the live session's event"
kill -0 "$up" 2>/dev/null
t_ok $? "the session runs on"

# its exact name does, and says that it was a running session's
t0=$(date +%s%N)
upft_run -d "upfront_$up:*"
t_is "$UPFT_RC" 0 "-d upfront_$up:* (the exact group): exit 0"
t_like "$UPFT_OUT" "^Removed event: upfront_$up:walk \\(of the running session of pid $up, which stops with an error\\)\$" \
	"-d says it removed a running session's event"

# the session notices at once and stops with status 1
# (times UPFT_TIMEOUT_SCALE where the CPU is emulated: scripts/arm64/guest-tests)
for ((i = 0; i < 50 * ${UPFT_TIMEOUT_SCALE:-1}; i++)); do
	kill -0 "$up" 2>/dev/null || break
	sleep 0.1
done
kill -0 "$up" 2>/dev/null && { kill -INT "$up"; t_fail "the session stopped within 5 s"; } ||
	t_pass "the session stopped within 5 s ($((($(date +%s%N) - t0) / 1000000)) ms)"
wait "$up"
t_is "$?" 1 "the session exits with status 1"
t_like "$(cat "$UPFT_TMP/s.err")" "^upfront: event upfront_$up:walk was removed from tracefs by another process \\(upfront -d\\?\\): its calls are no longer seen; stopping\$" \
	"the session says its event was removed"
t_is "$(grep -c "^[pr]:upfront_$up/" "$UPFT_TRACEFS/uprobe_events")" 0 "nothing of it is left"
t_is "$(ls -d "$UPFT_TRACEFS/instances/upfront_$up" 2>/dev/null)" "" "nor its instance"
t_done
