#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# string-cost.sh - what reading a Go string costs (issue 22): tests/targets/go/calls
# `names N` calls main.handle(name, i) N times on one locked thread with a 200-byte name and
# prints that thread's CPU time (rusage: the uprobe's work runs on it). Thread CPU in ns per
# call, best of REPEATS rounds (every configuration in turn each round: the shared machine's
# load drifts over all alike), for: no probe; the probe alone (the -D line's address and
# filter with no field but its flags (if any), enabled in an instance, nobody reading); the -D line of
# 'main.handle name id' in the kernel alone, its text chunks as u64 words (a live session's)
# and as char[N] (what upfront read before); and `upfront --json 'main.handle name id'`
# (events, lost), and the same with -o OLD (another upfront build, e.g. main before the
# change); at each --string-size of -s (default "128 64 16"). Prints a markdown table and the kernel and Go versions.
#
# usage: bench/string-cost.sh [-n CALLS] [-r REPEATS] [-b BUILDDIR] [-t TARGETS] [-o OLD]
#                             [-s "SIZE..."]   (each a multiple of 8, at most 512)
# Needs root and tracefs. Cleans up on exit, INT, TERM and HUP.
set -u

calls=200000 repeats=5 targets= old= sizes="128 64 16"
builddir=$(cd "$(dirname "$0")/.." && pwd)
while getopts n:r:b:t:o:s: o; do
	case $o in
	n) calls=$OPTARG ;;
	r) repeats=$OPTARG ;;
	b) builddir=$OPTARG ;;
	t) targets=$OPTARG ;;
	o) old=$OPTARG ;;
	s) sizes=$OPTARG ;;
	*) echo "usage: $0 [-n CALLS] [-r REPEATS] [-b BUILDDIR] [-t TARGETS] [-o OLD] [-s SIZES]" >&2
	   exit 2 ;;
	esac
done
upfront=$builddir/upfront
targets=${targets:-$builddir/tests/build}
bin=$targets/go/calls
T=${UPFT_TRACEFS:-/sys/kernel/tracing}
G=upft_sc$$
I=$T/instances/$G
tmp=$(mktemp -d /tmp/upfront-string-cost.XXXXXX)

cleanup() {
	if [ -d "$I" ]; then
		for e in "$I/events/$G"/*/enable; do
			[ -e "$e" ] && echo 0 >"$e"
		done
		rmdir "$I"
	fi
	grep -E "^[pr]:$G/" "$T/uprobe_events" 2>/dev/null | while read -r def _; do
		echo "-:${def#?:}" >>"$T/uprobe_events"
	done
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

[ -x "$bin" ] || { echo "string-cost.sh: $bin not built (tests/targets/build.sh)" >&2; exit 1; }
"$bin" names 1 2>&1 | grep -q 'thread cpu ns' ||
	{ echo "string-cost.sh: $bin has no 'names' mode (rebuild the targets)" >&2; exit 1; }
mkdir "$I" || exit 1

# define NAME SIZE [SED] - the -D line of 'main.handle name id' at --string-size SIZE as
# $G/NAME, its fields edited by SED; its filter (Go's stack check) set in the instance
define() {
	local out line filter
	out=$("$upfront" -x "$bin" --string-size "$2" -D 'main.handle name id') || exit 1
	line=$(printf '%s\n' "$out" | grep '^p:' | sed "${3:-}")
	echo "p:$G/$1 ${line#* }" >>"$T/uprobe_events" || exit 1
	filter=$(printf '%s\n' "$out" | sed -n "s/^# filter [^ ]* '\([^']*\)'.*/\1/p")
	[ -z "$filter" ] || echo "$filter" >"$I/events/$G/$1/filter" || exit 1
}
# u64[N] words back to the char[8N] chunks upfront read before
chars=
for ((n = 1; n <= 8; n++)); do
	chars+="s/:u64\\[$n\\]/:char[$((n * 8))]/g;"
done
define alone 16 's/ name=.* upft_fl=/ upft_fl=/; t; s/ name=.*//'
for s in $sizes; do
	define "w$s" "$s"
	define "c$s" "$s" "$chars"
done

# cpu CMD... - thread CPU ns per call of one run of CMD (the target's own report)
cpu() {
	local ns
	ns=$("$@" 2>&1 >/dev/null | sed -n 's/.*thread cpu ns \([0-9]*\).*/\1/p')
	echo $((${ns:-0} / calls))
}

# kernel EVENT - ns per call with $G/EVENT enabled in the instance
kernel() {
	local r
	echo 1 >"$I/events/$G/$1/enable"
	r=$(cpu "$bin" names "$calls")
	echo 0 >"$I/events/$G/$1/enable"
	echo >"$I/trace"
	echo "$r"
}

# up KEY UPFRONT SIZE - ns per call under UPFRONT --json --string-size SIZE; "EVENTS LOST"
# from its summary into $tmp/sum.KEY
up() {
	local ns
	"$2" --json --string-size "$3" -x "$bin" 'main.handle name id' -- "$bin" names "$calls" \
		>/dev/null 2>"$tmp/err"
	ns=$(sed -n 's/.*thread cpu ns \([0-9]*\).*/\1/p' "$tmp/err")
	sed -n 's/^upfront: \([0-9]*\) events, \([0-9]*\) lost.*/\1 \2/p' "$tmp/err" >"$tmp/sum.$1"
	echo $((${ns:-0} / calls))
}

min() {
	[ -z "$1" ] || [ "$2" -lt "$1" ] && echo "$2" || echo "$1"
}

declare -A best
keys="none alone"
for s in $sizes; do
	keys+=" w$s c$s u$s"
	[ -z "$old" ] || keys+=" o$s"
done
for ((r = 0; r < repeats; r++)); do
	for k in $keys; do
		case $k in
		none) v=$(cpu "$bin" names "$calls") ;;
		u*) v=$(up "$k" "$upfront" "${k#u}") ;;
		o*) v=$(up "$k" "$old" "${k#o}") ;;
		*) v=$(kernel "$k") ;;
		esac
		best[$k]=$(min "${best[$k]:-}" "$v")
	done
done

ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2fx", (b > 0 ? a / b : 0) }'
}
events() {
	local e l
	read -r e l <"$tmp/sum.$1" || { echo "| - | -"; return; }
	echo "| $e | $l"
}
a=${best[alone]}
echo "kernel $(uname -r); $(go version 2>/dev/null | cut -d' ' -f3); $calls calls of" \
	"main.handle(name, id), name 200 bytes; thread CPU, best of $repeats;" \
	"load $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| | ns/call | x probe alone | events | lost |"
echo "| --- | --- | --- | --- | --- |"
echo "| no probe | ${best[none]} | - | - | - |"
echo "| probe alone (no field but the flags; kernel) | $a | 1.00x | - | - |"
for s in $sizes; do
	echo "| kernel, --string-size $s as u64 words | ${best[w$s]} | $(ratio "${best[w$s]}" "$a") | - | - |"
	echo "| kernel, --string-size $s as char[N] | ${best[c$s]} | $(ratio "${best[c$s]}" "$a") | - | - |"
	echo "| \`upfront --json --string-size $s\` | ${best[u$s]} | $(ratio "${best[u$s]}" "$a") $(events "u$s") |"
	[ -n "$old" ] &&
		echo "| \`$old\` (-o), --string-size $s | ${best[o$s]} | $(ratio "${best[o$s]}" "$a") $(events "o$s") |"
done
