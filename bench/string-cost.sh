#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# string-cost.sh - what reading a Go string costs (issue 22): tests/targets/go/calls
# `names N` calls main.handle(name, i) N times on one locked thread with a 200-byte name and
# prints that thread's CPU time (rusage: the uprobe's work runs on it). Thread CPU in ns per
# call, best of REPEATS rounds (every configuration in turn each round: the shared machine's
# load drifts over all alike), for: no probe; the probe alone (the -D line's address and
# filter with no field but its flags (if any), enabled in an instance, nobody reading); the -D line of
# 'main.handle name id' in the kernel alone in each form of -f (default "w k f c"): w as -D
# gives it (u64 words, one array per 512 bytes: a live session's), k the words as u64[8]
# arrays of 64 bytes (session 4's layout), f one u64 field per word, c char[64] chunks (what
# upfront read before session 4); and `upfront --json 'main.handle name id'` (events, lost),
# and the same with -o OLD (another upfront build, e.g. main before the change); at each
# --string-size of -s (default "128 64 16"). Prints a markdown table and the kernel and Go versions.
#
# usage: bench/string-cost.sh [-n CALLS] [-r REPEATS] [-b BUILDDIR] [-t TARGETS] [-o OLD]
#                             [-s "SIZE..."] [-f "FORM..."]   (sizes multiples of 8, <= 512)
# Needs root and tracefs. Cleans up on exit, INT, TERM and HUP.
set -u

calls=200000 repeats=5 targets= old= sizes="128 64 16" forms="w k f c"
builddir=$(cd "$(dirname "$0")/.." && pwd)
while getopts n:r:b:t:o:s:f: o; do
	case $o in
	n) calls=$OPTARG ;;
	r) repeats=$OPTARG ;;
	b) builddir=$OPTARG ;;
	t) targets=$OPTARG ;;
	o) old=$OPTARG ;;
	s) sizes=$OPTARG ;;
	f) forms=$OPTARG ;;
	*) echo "usage: $0 [-n CALLS] [-r REPEATS] [-b BUILDDIR] [-t TARGETS] [-o OLD] [-s SIZES]" \
		"[-f FORMS]" >&2
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

# define NAME SIZE [FORM] - the -D line of 'main.handle name id' at --string-size SIZE as
# $G/NAME, its u64[N] words rewritten to FORM (reform), or all fields but the flags dropped
# (FORM "alone"); its filter (Go's stack check) set in the instance
define() {
	local out line filter
	out=$("$upfront" -x "$bin" --string-size "$2" -D 'main.handle name id') || exit 1
	line=$(printf '%s\n' "$out" | grep '^p:' | reform "${3:-w}")
	echo "p:$G/$1 ${line#* }" >>"$T/uprobe_events" || exit 1
	filter=$(printf '%s\n' "$out" | sed -n "s/^# filter [^ ]* '\([^']*\)'.*/\1/p")
	[ -z "$filter" ] || echo "$filter" >"$I/events/$G/$1/filter" || exit 1
}
# reform FORM - a -D line's NAME=+OFF(X):u64[N] words as FORM (w: as they are; k: u64[8]
# arrays of 64 bytes; f: a u64 field per word; c: char[64] arrays), or (alone) the line with
# no field but the flags
reform() {
	perl -pe 'BEGIN { $f = shift @ARGV }
		if ($f eq "alone") { s/ name=.* upft_fl=/ upft_fl=/ or s/ name=.*//; next }
		next if $f eq "w";
		s{(\w+)=\+(\d+)\((.*?)\):u64\[(\d+)\]}{
			my ($n, $o, $x, $w) = ($1, $2, $3, $4); my @p;
			my $per = $f eq "f" ? 1 : 8;
			for (my $i = 0; $i < $w; $i += $per) {
				my $k = $w - $i < $per ? $w - $i : $per;
				my $t = $f eq "f" ? "u64" : $f eq "k" ? "u64[$k]" : "char[" . 8 * $k . "]";
				push @p, ($i ? "${n}_w$i" : $n) . "=+" . ($o + 8 * $i) . "($x):$t";
			}
			join " ", @p }ge' "$1"
}
define alone 16 alone
for s in $sizes; do
	for f in $forms; do
		define "$f$s" "$s" "$f"
	done
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

# up KEY UPFRONT SIZE - ns per call under UPFRONT --json --string-size SIZE; "EVENTS LOST
# DECODE_NS" (the decoding thread's own CPU per event, -v: not on the traced thread, so not
# in ns/call) from its summary into $tmp/sum.KEY
up() {
	local ns
	"$2" -v --json --string-size "$3" -x "$bin" 'main.handle name id' -- "$bin" names "$calls" \
		>/dev/null 2>"$tmp/err"
	ns=$(sed -n 's/.*thread cpu ns \([0-9]*\).*/\1/p' "$tmp/err")
	{ sed -n 's/^upfront: \([0-9]*\) events, \([0-9]*\) lost.*/\1 \2/p' "$tmp/err"
	  sed -n 's/.*decoding: \([0-9]*\) events in \([0-9.]*\) s of CPU.*/\1 \2/p' "$tmp/err" |
		awk '{ printf "%d\n", ($1 ? $2 * 1e9 / $1 : 0) }'; } | paste -sd' ' >"$tmp/sum.$1"
	echo $((${ns:-0} / calls))
}

min() {
	[ -z "$1" ] || [ "$2" -lt "$1" ] && echo "$2" || echo "$1"
}

declare -A best
keys="none alone"
for s in $sizes; do
	for f in $forms; do
		keys+=" $f$s"
	done
	keys+=" u$s"
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
	local e l dec
	read -r e l dec <"$tmp/sum.$1" || { echo "| - | - | -"; return; }
	echo "| $e | $l | ${dec:--}"
}
a=${best[alone]}
echo "kernel $(uname -r); $(go version 2>/dev/null | cut -d' ' -f3); $calls calls of" \
	"main.handle(name, id), name 200 bytes; thread CPU, best of $repeats;" \
	"load $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| | ns/call | x probe alone | events | lost | decoder ns/event |"
echo "| --- | --- | --- | --- | --- | --- |"
echo "| no probe | ${best[none]} | - | - | - | - |"
echo "| probe alone (no field but the flags; kernel) | $a | 1.00x | - | - | - |"
for s in $sizes; do
	for f in $forms; do
		case $f in
		w) what="u64 words, one array (a live session's)" ;;
		k) what="u64[8] arrays of 64 bytes" ;;
		f) what="a u64 field per word" ;;
		c) what="char[64] arrays" ;;
		esac
		echo "| kernel, --string-size $s, $what | ${best[$f$s]} | $(ratio "${best[$f$s]}" "$a") | - | - | - |"
	done
	echo "| \`upfront --json --string-size $s\` | ${best[u$s]} | $(ratio "${best[u$s]}" "$a") $(events "u$s") |"
	[ -n "$old" ] &&
		echo "| \`$old\` (-o), --string-size $s | ${best[o$s]} | $(ratio "${best[o$s]}" "$a") $(events "o$s") |"
done
