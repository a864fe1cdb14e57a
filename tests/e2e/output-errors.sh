#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# output-errors.sh - a write error on the event output is never silent: -o FILE on a full
# filesystem (a 256 KiB tmpfs, in a mount namespace of its own) and on /dev/full give one
# error line, exit status 1, the events not written counted as lost in the summary (never
# "0 lost"), exactly the summary's events in the file, and the traced command left to finish
# (its own last line, its exit status 0) instead of being sent SIGTERM.
. "$(dirname "$0")/lib.sh"
upft_need_root

C=$UPFT_TARGETS/c/calls-O2
[ -x "$C" ] || t_bail "targets not built (tests/targets/build.sh $UPFT_TARGETS)"
command -v unshare >/dev/null || t_bail "unshare (util-linux) is not installed"
N=20000
mkdir -p "$UPFT_TMP/full"

# full_run MODE - upfront MODE -o FILE on a 256 KiB tmpfs; FILE's lines in $UPFT_TMP/lines
full_run() {
	UPFT_TIMEOUT=120 upft_run_in_ns "$1" -o "$UPFT_TMP/full/ev" -x "$C" 'tick i' -- \
		"$C" flood $N
}
upft_run_in_ns() {
	timeout -s INT -k 5 120 unshare -m --propagation private sh -c '
		d=$1; shift
		mount -t tmpfs -o size=256k none "$d" || exit 99
		"$@"; rc=$?
		wc -l <"$d/ev" >"$d.lines"; tail -c 300 "$d/ev" >"$d.tail"
		exit $rc' sh "$UPFT_TMP/full" "$UPFRONT" "$@" \
		>"$UPFT_TMP/out" 2>"$UPFT_TMP/err" </dev/null
	UPFT_RC=$?
	UPFT_OUT=$(cat "$UPFT_TMP/out")
	UPFT_ERR=$(cat "$UPFT_TMP/err")
}

for mode in --json --stdio; do
	full_run "$mode"
	[ "$UPFT_RC" -eq 99 ] && t_bail "cannot mount a tmpfs in a mount namespace"
	t_is "$UPFT_RC" 1 "$mode -o on a full tmpfs: exit 1"
	t_like "$UPFT_ERR" "^upfront: cannot write the events to $UPFT_TMP/full/ev: No space left on device; tracing stopped, the command runs on untraced\$" \
		"$mode -o on a full tmpfs: one line says why"
	t_is "$(grep -c '^upfront: cannot write' <<<"$UPFT_ERR")" 1 "$mode: said once"
	sum=$(grep -E '^upfront: [0-9]+ events, [0-9]+ lost' <<<"$UPFT_ERR")
	t_like "$sum" '^upfront: [0-9]+ events, [1-9][0-9]* lost \([1-9][0-9]* not written\)$' \
		"$mode: the summary counts the events not written as lost ($sum)"
	ev=$(sed -E 's/^upfront: ([0-9]+) events.*/\1/' <<<"$sum")
	lost=$(sed -E 's/.* ([0-9]+) lost.*/\1/' <<<"$sum")
	t_is "$(cat "$UPFT_TMP/full.lines")" "$ev" "$mode: the file holds as many whole lines as the summary's events"
	t_ok $((ev + lost > 0 && ev + lost <= N ? 0 : 1)) "$mode: events + lost within the $N calls ($ev + $lost)"
	t_like "$UPFT_ERR" "^calls: flood $N done, sink [0-9]+\$" \
		"$mode: the traced command ran to its end (no SIGTERM)"
	t_is "$(printf '%s\n' "$UPFT_OUT" | grep -c '^calls: flood line')" "$N" \
		"$mode: the command wrote all its $N lines"
done

# /dev/full: the first write fails; nothing is an event, everything lost
upft_run --stdio -o /dev/full -x "$C" 'tick i' -- "$C" flood 3000
t_is "$UPFT_RC" 1 "-o /dev/full: exit 1"
t_like "$UPFT_ERR" '^upfront: cannot write the events to /dev/full: No space left on device; tracing stopped' \
	"-o /dev/full: one line says why"
t_like "$UPFT_ERR" '^upfront: 0 events, [1-9][0-9]* lost \([1-9][0-9]* not written\)$' \
	"-o /dev/full: 0 events, the rest lost"
t_like "$UPFT_ERR" '^calls: flood 3000 done' "-o /dev/full: the command ran to its end"

# a reader gone (| head) stays quiet and clean: exit 0, no error line
"$UPFRONT" --stdio -x "$C" 'tick i' -- "$C" flood 20000 2>"$UPFT_TMP/h.err" </dev/null |
	head -3 >"$UPFT_TMP/h.out"
t_is "${PIPESTATUS[0]}" 0 "| head -3: exit 0"
t_unlike "$(cat "$UPFT_TMP/h.err")" '^upfront: cannot write' "| head -3: no error line"
t_done
