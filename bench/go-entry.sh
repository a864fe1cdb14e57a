#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# go-entry.sh - what a Go entry probe costs (issue 10): tests/targets/go/calls `loop N` calls
# main.down(i, 0) N times on one goroutine (a function with the stack check's short form,
# cmp 0x10(%r14),%rsp; jbe). ns per call, best of REPEATS rounds (every configuration in turn
# each round: the shared machine's load drifts over all alike), for: no probe; kernel only
# (the -D line in an instance, enabled, nobody reading) with the plain placement (past the
# check: Go 1.19's sub $N,%rsp, single-stepped), on the jbe with and without the filter that
# drops the taken hits; and `upfront --json 'main.down id n'` plain and on the jbe (events,
# lost). Prints a markdown table and the kernel and Go versions.
#
# usage: bench/go-entry.sh [-n CALLS] [-r REPEATS] [-b BUILDDIR] [-t TARGETS]
# Needs root and tracefs. Cleans up on exit, INT, TERM and HUP.
set -u

calls=200000 repeats=5 targets=
builddir=$(cd "$(dirname "$0")/.." && pwd)
while getopts n:r:b:t: o; do
	case $o in
	n) calls=$OPTARG ;;
	r) repeats=$OPTARG ;;
	b) builddir=$OPTARG ;;
	t) targets=$OPTARG ;;
	*) echo "usage: $0 [-n CALLS] [-r REPEATS] [-b BUILDDIR] [-t TARGETS]" >&2
	   exit 2 ;;
	esac
done
upfront=$builddir/upfront
targets=${targets:-$builddir/tests/build}
bin=$targets/go/calls
. "$(dirname "$0")/lib.sh"
bench_init ge go-entry
I=$T/instances/$G

[ -x "$bin" ] || { echo "go-entry.sh: $bin not built (tests/targets/build.sh)" >&2; exit 1; }
mkdir "$I" || exit 1

# define NAME ENV - the -D line of 'main.down id n' (UPFRONT_PLACEMENT=ENV, empty: cost-aware)
# as $G/NAME
define() {
	local line
	line=$(UPFRONT_PLACEMENT=$2 "$upfront" -x "$bin" -D 'main.down id n' | grep '^p:') ||
		exit 1
	echo "p:$G/$1 ${line#* }" >>"$T/uprobe_events" || exit 1
}
define plain plain
define jbe ""
define jbe_nofilter ""
echo '!(upft_fl & 0x41)' >"$I/events/$G/jbe/filter" || exit 1

# ns CMD... - ns per call of one run of CMD
ns() {
	local t0 t1
	t0=$(date +%s%N)
	"$@" >/dev/null 2>&1
	t1=$(date +%s%N)
	echo $(((t1 - t0) / calls))
}

# kernel EVENT - ns per call with $G/EVENT enabled in the instance
kernel() {
	local r
	echo 1 >"$I/events/$G/$1/enable"
	r=$(ns "$bin" loop "$calls")
	echo 0 >"$I/events/$G/$1/enable"
	echo >"$I/trace"
	echo "$r"
}

# up ENV - ns per call under upfront --json (UPFRONT_PLACEMENT=ENV); "EVENTS LOST" from its
# summary into $tmp/sum.ENV
up() {
	local t0 t1
	t0=$(date +%s%N)
	UPFRONT_PLACEMENT=$1 "$upfront" --json -x "$bin" 'main.down id n' -- "$bin" loop "$calls" \
		>"$tmp/out" 2>"$tmp/err"
	t1=$(date +%s%N)
	sed -n 's/^upfront: \([0-9]*\) events, \([0-9]*\) lost.*/\1 \2/p' "$tmp/err" \
		>"$tmp/sum.${1:-cost}"
	echo $(((t1 - t0) / calls))
}

min() {
	[ -z "$1" ] || [ "$2" -lt "$1" ] && echo "$2" || echo "$1"
}

b_none= b_plain= b_jbe= b_nof= u_plain= u_cost=
for ((r = 0; r < repeats; r++)); do
	b_none=$(min "$b_none" "$(ns "$bin" loop "$calls")")
	b_plain=$(min "$b_plain" "$(kernel plain)")
	b_jbe=$(min "$b_jbe" "$(kernel jbe)")
	b_nof=$(min "$b_nof" "$(kernel jbe_nofilter)")
	u_plain=$(min "$u_plain" "$(up plain)")
	u_cost=$(min "$u_cost" "$(up "")")
done

echo "kernel $(uname -r); $(go version 2>/dev/null | cut -d' ' -f3); $calls calls of" \
	"main.down, best of $repeats; load $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| | ns/call | events | lost |"
echo "| --- | --- | --- | --- |"
echo "| no probe | $b_none | - | - |"
echo "| past the check (\`sub\`, single-stepped; kernel only) | $b_plain | - | - |"
echo "| on the jbe with the filter (kernel only) | $b_jbe | - | - |"
echo "| on the jbe without the filter (kernel only) | $b_nof | - | - |"
read -r e l <"$tmp/sum.plain"
echo "| \`upfront --json 'main.down id n'\`, plain placement | $u_plain | $e | $l |"
read -r e l <"$tmp/sum.cost"
echo "| \`upfront --json 'main.down id n'\`, on the jbe | $u_cost | $e | $l |"
