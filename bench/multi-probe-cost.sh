#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/multi-probe-cost.sh - what one event per probe point costs (the fallback for kernels
# without multi-probe events, 4.18: src/fallback.h) against one event for all points: the
# wall time of a whole session (define, enable, run /bin/true, disable, remove) and of -a
# then -d, for globs of growing size, each mode masked on this kernel with
# UPFRONT_KERNEL_FEATURES=-multi_probe. Prints one line per glob with the ratio.
#
# usage: bench/multi-probe-cost.sh [RUNS]      (root; the median of RUNS runs, default 3)
# Environment: UPFRONT (default ./upfront), UPFT_TARGETS (default tests/build), BIN (default
# $UPFT_TARGETS/go/calls), GLOBS (default "main.* runtime.s* runtime.a*").
set -u
cd "$(dirname "$0")/.." || exit 1
. bench/lib.sh
bench_init mp multi-probe-cost

runs=${1:-3}
UPFRONT=${UPFRONT:-./upfront}
BIN=${BIN:-${UPFT_TARGETS:-tests/build}/go/calls}
GLOBS=${GLOBS:-"main.* runtime.s* runtime.a*"}
[ -x "$BIN" ] || { echo "no $BIN (tests/targets/build.sh tests/build)" >&2; exit 1; }

# ms CMD... - wall milliseconds of CMD (its output dropped)
ms() {
	local t0 t1
	t0=$(date +%s%N)
	"$@" >/dev/null 2>&1
	t1=$(date +%s%N)
	echo $(((t1 - t0) / 1000000))
}

# median N...
median() {
	printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

# session MASK GLOB - a session on GLOB that runs /bin/true (no hit)
session() {
	UPFRONT_KERNEL_FEATURES=$1 "$UPFRONT" -x "$BIN" "$2" -- /bin/true
}

# add_del MASK GLOB - -a then -d of GLOB in the group $G
add_del() {
	UPFRONT_KERNEL_FEATURES=$1 "$UPFRONT" -g "$G" -x "$BIN" -a "mp=$2" &&
		"$UPFRONT" -d "$G:mp"
}

printf '%-12s %6s %7s | %9s %9s %6s | %9s %9s %6s\n' glob points events \
	"sess(ms)" "split" ratio "-a -d(ms)" "split" ratio
for g in $GLOBS; do
	points=$("$UPFRONT" -x "$BIN" -D "$g" 2>/dev/null | grep -c '^p:')
	events=$(UPFRONT_KERNEL_FEATURES=-multi_probe "$UPFRONT" -x "$BIN" -D "$g" 2>/dev/null |
		 grep '^p:' | awk '{ print $1 }' | sort -u | wc -l)
	s1=() s2=() a1=() a2=()
	for ((r = 0; r < runs; r++)); do
		s1+=("$(ms session "" "$g")")
		s2+=("$(ms session -multi_probe "$g")")
		a1+=("$(ms add_del "" "$g")")
		a2+=("$(ms add_del -multi_probe "$g")")
	done
	m1=$(median "${s1[@]}") m2=$(median "${s2[@]}")
	n1=$(median "${a1[@]}") n2=$(median "${a2[@]}")
	printf '%-12s %6d %7d | %9d %9d %5sx | %9d %9d %5sx\n' "$g" "$points" "$events" \
		"$m1" "$m2" "$(awk -v a="$m2" -v b="$m1" 'BEGIN { printf "%.2f", a / b }')" \
		"$n1" "$n2" "$(awk -v a="$n2" -v b="$n1" 'BEGIN { printf "%.2f", a / b }')"
done
echo "kernel $(uname -r), $(nproc) CPUs, load $(cut -d' ' -f1 /proc/loadavg); $BIN"
