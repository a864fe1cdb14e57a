#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# fault-cost.sh - what the fault check of a value read through a pointer costs per event: the
# hidden :string at one of the value's bytes (resolve-check.c) against the value alone, on the
# running kernel. The workload is bench/pa-cost.c (pa_target(long a, unsigned long b, void *c,
# const char *s) -O0, called CALLS times on one thread; c points at a long that grows, its top
# byte 0; s at "hello"). One probe at a time on pa_target's entry, enabled in a private
# instance that nobody reads (the ring buffer wraps); the thread's CPU time per call, median
# of ROUNDS runs, less the same with a bare probe (the floor), in ns:
#
#   value      v=+0(%dx):u64                     the value alone
#   check0     v, c=+7(%dx):string               its check on a 0 byte (1 byte: "")
#   check6     v, c=+0(%cx):string               a check that runs 6 bytes ("hello")
#   unmapped   v=+0(\12345):u64, c=+7(\12345):string  both reads fail (a page fault each)
#   comm       v, c=-70(+0(%dx)):string          the other way (string at the value less
#                                                $comm's token: $comm where it is 0)
#
# usage: bench/fault-cost.sh [-n CALLS] [-r ROUNDS]
# UPFRONT names the upfront binary (default: the one built beside bench/). Needs root and
# tracefs; cleans up on exit, INT, TERM and HUP.
set -u

calls=200000 rounds=7
while getopts n:r: o; do
	case $o in
	n) calls=$OPTARG ;;
	r) rounds=$OPTARG ;;
	*) echo "usage: $0 [-n CALLS] [-r ROUNDS]" >&2; exit 2 ;;
	esac
done
here=$(cd "$(dirname "$0")" && pwd)
upfront=${UPFRONT:-$here/../upfront}
. "$(dirname "$0")/lib.sh"
bench_init fc fault-cost

[ -w "$T/uprobe_events" ] || { echo "needs root and tracefs at $T" >&2; exit 1; }
gcc -O0 -g -o "$tmp/w" "$here/pa-cost.c" || exit 1
W=$tmp/w
# where a bare probe on pa_target's entry goes, as upfront -D writes it ("PATH:0xOFF")
at=$("$upfront" -x "$W" -D 'pa_target+0' | awk '/^p:/ { print $2 }')
[ -n "$at" ] || { echo "upfront -D found no pa_target" >&2; exit 1; }

# cpu ARGS - the workload thread's CPU ns per call with "p:$G/e $W:$off ARGS" enabled
cpu() {
	local ev=e$RANDOM
	echo "p:$G/$ev $at $1" >>"$T/uprobe_events" || return 1
	mkdir "$T/instances/$G"
	echo 1 >"$T/instances/$G/events/$G/$ev/enable"
	"$W" "$calls" 2>&1 >/dev/null | awk 'NF == 4 { v = $2 } END { print v }'
	echo 0 >"$T/instances/$G/events/$G/$ev/enable"
	rmdir "$T/instances/$G"
	echo "-:$G/$ev" >>"$T/uprobe_events"
}

declare -A conf=(
	[floor]=""
	[value]="v=+0(%dx):u64"
	[check0]="v=+0(%dx):u64 c=+7(%dx):string"
	[check6]="v=+0(%dx):u64 c=+0(%cx):string"
	[unmapped]="v=+0(\\12345):u64 c=+7(\\12345):string"
	[comm]="v=+0(%dx):u64 c=-70(+0(%dx)):string"
)
order="floor value check0 check6 unmapped comm"
declare -A res
printf '# kernel %s; %s calls per run, %s rounds; load average %s\n' "$(uname -r)" "$calls" \
	"$rounds" "$(cut -d' ' -f1-3 /proc/loadavg)"
for _ in $(seq "$rounds"); do
	for k in $order; do
		res[$k]+="$(cpu "${conf[$k]}") "
	done
done
for k in $order; do
	printf '%s|%s|%s\n' "$k" "${res[$k]}" "${conf[$k]}"
done | python3 -c '
import sys, statistics as st
rows = [l.rstrip("\n").split("|") for l in sys.stdin]
med = {k: st.median(float(x) for x in v.split()) for k, v, _ in rows}
print("%-9s %9s %9s  %s" % ("", "cpu ns", "- floor", "fetch-args"))
for k, _, args in rows:
    print("%-9s %9.1f %9.1f  %s" % (k, med[k], med[k] - med["floor"], args))
'
