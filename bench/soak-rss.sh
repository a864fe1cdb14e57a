#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# soak-rss.sh - upfront's memory over a long session at a high event rate: RSS every INTERVAL
# seconds for DURATION seconds while tests/build/c/calls-O2 calls walk() ~50,000 times a
# second (walk(N) every MS milliseconds), with a stalled reader for the first 5 s (a burst
# that grows the stream's queue), then events to a file. Prints "SECONDS RSS_KB EVENTS" lines
# and, at the end, the summary; flat RSS after the burst is the expectation (the slot pool
# gives back what a burst took: stream.c slot_trim()).
#
# usage: bench/soak-rss.sh [-d DURATION_S] [-i INTERVAL_S] [-n N] [-m MS] [-b BUILDDIR]
# (default 600 s, every 10 s, walk(14) every 25 ms: 1219 calls, ~49,000 events/s). Needs root.
set -u

duration=600 interval=10 n=14 ms=25 builddir=$(cd "$(dirname "$0")/.." && pwd)
while getopts d:i:n:m:b: o; do
	case $o in
	d) duration=$OPTARG ;;
	i) interval=$OPTARG ;;
	n) n=$OPTARG ;;
	m) ms=$OPTARG ;;
	b) builddir=$OPTARG ;;
	*) echo "usage: $0 [-d DURATION_S] [-i INTERVAL_S] [-n N] [-m MS] [-b BUILDDIR]" >&2
	   exit 2 ;;
	esac
done
upfront=$builddir/upfront
C=$builddir/tests/build/c/calls-O2
[ -x "$C" ] || { echo "soak-rss: $C not built (tests/targets/build.sh)" >&2; exit 2; }
tmp=$(mktemp -d /tmp/upfront-soak.XXXXXX)
trap 'kill -INT "$up" 2>/dev/null; wait; rm -rf "$tmp"' EXIT

"$upfront" --json --duration "$duration" -x "$C" 'walk n' -- "$C" loop "$n" "$ms" \
	2>"$tmp/err" </dev/null | (sleep 5; cat >"$tmp/out") &
for _ in $(seq 100); do
	up=$(pgrep -xf "$upfront --json --duration $duration -x $C walk n -- $C loop $n $ms" |
		head -1)
	[ -n "$up" ] && break
	sleep 0.1
done
[ -n "$up" ] || { echo "soak-rss: upfront did not start" >&2; exit 1; }
echo "# seconds rss_kb lines_written (walk($n) every $ms ms)"
start=$(date +%s)
while kill -0 "$up" 2>/dev/null; do
	now=$(($(date +%s) - start))
	rss=$(sed -n 's/^VmRSS:[[:space:]]*\([0-9]*\) kB$/\1/p' "/proc/$up/status" 2>/dev/null)
	[ -n "$rss" ] && echo "$now $rss $(cat "$tmp/out" 2>/dev/null | wc -l)"
	sleep "$interval"
done
wait
grep '^upfront:' "$tmp/err"
