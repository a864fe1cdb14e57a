#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# insn-cost.sh - what one uprobe hit costs on each instruction class compilers put at and near
# function entries, on the running kernel: ns per hit (the probed loop minus the same loop
# unprobed), and whether the kernel emulates the instruction or single-steps it out of line.
#
# usage: bench/insn-cost.sh [-n CALLS] [-r REPEATS] [-c "CLASS ..."] [-g GAP]
#
# The target (bench/insn-cost.c, built here) has one function per class with the instruction
# to probe at a label. One probe at a time is defined through tracefs (its own group), enabled
# in a private instance (nobody reads it: the ring buffer wraps), and the function is called
# CALLS times on one thread; the minimum of REPEATS runs is kept (the machine is shared).
# Emulated or single-stepped is read from the numbers, not from a list: the costs fall into two
# groups with a wide gap (the largest ratio between neighbours once sorted, at least GAP,
# default 3); below it is "emulated", above it "single-step". A probe the kernel optimized
# (6.18+: a nop5 rewritten into a call to the uprobe trampoline, no breakpoint trap after the
# first hit) is "optimized": the target reads its own code after the loop and finds a call
# where the breakpoint (0xcc) should be. Hits are counted from uprobe_profile: a class whose
# probe was not hit once per call is "not hit".
# Needs root and tracefs; cleans up on exit, INT, TERM and HUP.
set -u

calls=200000 repeats=3 gap=3 only=
while getopts n:r:c:g: o; do
	case $o in
	n) calls=$OPTARG ;;
	r) repeats=$OPTARG ;;
	c) only=$OPTARG ;;
	g) gap=$OPTARG ;;
	*) echo "usage: $0 [-n CALLS] [-r REPEATS] [-c \"CLASS ...\"] [-g GAP]" >&2
	   exit 2 ;;
	esac
done
here=$(cd "$(dirname "$0")" && pwd)
T=${UPFT_TRACEFS:-/sys/kernel/tracing}
G=upft_ic$$
tmp=$(mktemp -d /tmp/upfront-insn-cost.XXXXXX)
cur=

cleanup() {
	if [ -d "$T/instances/$G" ]; then
		[ -n "$cur" ] && echo 0 >"$T/instances/$G/events/$G/$cur/enable" 2>/dev/null
		rmdir "$T/instances/$G"
	fi
	grep "^p:$G/" "$T/uprobe_events" 2>/dev/null | while read -r def _; do
		echo "-:${def#p:}" >>"$T/uprobe_events"
	done
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

[ -w "$T/uprobe_events" ] || { echo "needs root and tracefs at $T" >&2; exit 1; }
gcc -O2 -o "$tmp/insn-cost" "$here/insn-cost.c" || exit 1
B=$tmp/insn-cost
"$B" list >"$tmp/classes" || { echo "cannot list the classes" >&2; exit 1; }
mkdir "$T/instances/$G" || exit 1

# best NAME - the minimum ns/call of REPEATS runs of NAME's loop, and the first byte of the
# probed instruction as the program saw it after the last run
best() {
	local r v byte min=
	for r in $(seq "$repeats"); do
		read -r v byte < <("$B" run "$1" "$calls")
		[ -n "$v" ] || return 1
		if [ -z "$min" ] || [ "$(echo "$v < $min" | bc -l)" = 1 ]; then
			min=$v
		fi
	done
	echo "$min $byte"
}

# hits NAME - the probe's hit count from uprobe_profile ("  PATH  EVENT  HITS", no group)
hits() {
	awk -v bin="$B" -v ev="$1" '$1 == bin && $2 == ev { print $3 }' "$T/uprobe_profile"
}

: >"$tmp/results"
while IFS=$'\t' read -r name off text; do
	if [ -n "$only" ] && [[ " $only " != *" $name "* ]]; then
		continue
	fi
	read -r base _ < <(best "$name")
	[ -n "$base" ] || exit 1
	echo "p:$G/$name $B:$off" >>"$T/uprobe_events" || exit 1
	cur=$name
	echo 1 >"$T/instances/$G/events/$G/$name/enable" || exit 1
	read -r probed byte < <(best "$name")
	[ -n "$probed" ] || exit 1
	n=$(hits "$name")
	echo 0 >"$T/instances/$G/events/$G/$name/enable"
	cur=
	echo "-:$G/$name" >>"$T/uprobe_events"
	# every run calls the function CALLS times plus CALLS/100 + 1 to warm up
	want=$((repeats * calls))
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$text" "$base" "$probed" "${n:-0}" \
		"$want" "$byte" >>"$tmp/results"
done <"$tmp/classes"

# The split: sort by cost, take the widest ratio between neighbours (optimized probes, which
# trap no more, are left out: they would make a third group).
split=$(awk -F'\t' '$7 == "cc" { c = $4 - $3; if (c < 1) c = 1; print c }' "$tmp/results" |
	sort -g |
	awk -v gap="$gap" 'NR > 1 && $1 / prev > best { best = $1 / prev; lo = prev; hi = $1 }
		{ prev = $1 }
		END { if (best >= gap) printf "%.1f %.1f %.1f\n", lo, hi, best; else print "" }')

printf '# kernel %s (%s), %s\n' "$(uname -r)" "$(uname -m)" \
	"$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)"
printf '# %s calls x %s runs, min; load average %s\n' "$calls" "$repeats" \
	"$(cut -d' ' -f1-3 /proc/loadavg)"
if [ -n "$split" ]; then
	set -- $split
	printf '# split: %s ns | %s ns (%.1fx apart)\n' "$1" "$2" "$3"
	thresh=$(echo "sqrt($1 * $2)" | bc -l)
else
	printf '# no gap of %sx between the costs: emulation not told apart\n' "$gap"
	thresh=
fi
printf '%-15s %-24s %9s %9s  %s\n' class instruction ns/hit loop-ns kernel
while IFS=$'\t' read -r name text base probed n want byte; do
	cost=$(echo "$probed - $base" | bc -l)
	if [ "$n" -lt "$want" ]; then
		mode="not hit ($n of $want)"
	elif [ "$byte" != cc ]; then
		mode="optimized (0x$byte at the probe)"
	elif [ -z "$thresh" ]; then
		mode=?
	elif [ "$(echo "$cost < $thresh" | bc -l)" = 1 ]; then
		mode=emulated
	else
		mode=single-step
	fi
	printf '%-15s %-24s %9.0f %9.1f  %s\n' "$name" "$text" "$cost" "$base" "$mode"
done <"$tmp/results"
