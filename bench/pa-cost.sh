#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# pa-cost.sh - what `pa_target a b c s` costs the traced program, part by part (issue 10):
# `long pa_target(long a, unsigned long b, void *c, const char *s)` built -O0 (bench/pa-cost.c),
# called CALLS times in a tight loop on one thread, under each configuration in turn:
#
#   none        no probe
#   floor       a bare probe on the entry's push %rbp (upfront -D 'pa_target+0'), enabled in a
#               private instance with the kernel's defaults, nobody reading: the floor
#   kernel      upfront's -D line for 'pa_target a b c s' (the same place, the 4 fetch-args),
#               same instance, nobody reading: what the fetch-args cost in the kernel
#   settings    the same in an instance set up as upfront's session sets its own (its trace_clock,
#               options/record-tgid, set_event_pid + event-fork on the workload), nobody reading
#   upfront     upfront --json -o FILE 'pa_target a b c s' -- WORKLOAD: upfront reading
#   upfront_mono  the same with UPFRONT_TRACE_CLOCK=mono (the session's clock before)
#   perf_rec    upfront's -D line as an event of its own, read by `perf record -e`
#   perf_probe  perf probe's own definition of 'pa_target a b c s:string' (its placement),
#               read by `perf record -e`: the perf-probe equivalent
#   kernel_*    -K: the fetch-args one at a time (a, a b c, s alone, c read as a number)
#   upfront_other  -B DIR: upfront --json as built in DIR (another commit, for before/after)
#
# Three measures per run, each as a ratio to the floor of the same round, median over rounds
# with the quartiles (the machine is shared: rounds of every configuration in turn, so that
# load drifts over all alike): the workload thread's own CPU time per call (what the probe
# costs the thread: breakpoint, fetch-args, ring-buffer write and interrupts run in its context;
# time spent waiting for a CPU is not in it), the 10th percentile of the wall time of batches
# of 1,000 calls (batches that were not preempted), and the plain wall time per call (which on a
# loaded machine measures the load). trace-cmd is not run: on this VM (lockdown) Debian's
# trace-cmd 3.1.6 dies at start (doc/kernel-facts.md).
#
# usage: bench/pa-cost.sh [-n CALLS] [-r ROUNDS] [-b BUILDDIR] [-c "CONFIG ..."] [-K] [-B DIR]
# Needs root and tracefs; perf for perf_rec and perf_probe. Cleans up on exit, INT, TERM, HUP.
set -u

calls=200000 rounds=11 builddir=$(cd "$(dirname "$0")/.." && pwd) configs= singles= other=
while getopts n:r:b:c:KB: o; do
	case $o in
	n) calls=$OPTARG ;;
	r) rounds=$OPTARG ;;
	b) builddir=$OPTARG ;;
	c) configs=$OPTARG ;;
	K) singles="kernel_a kernel_abc kernel_s kernel_abcx" ;;
	B) other=$OPTARG ;;
	*) echo "usage: $0 [-n CALLS] [-r ROUNDS] [-b BUILDDIR] [-c \"CONFIG ...\"] [-K] [-B DIR]" >&2
	   exit 2 ;;
	esac
done
all="none floor kernel settings upfront upfront_mono ${other:+upfront_other }perf_rec perf_probe"
configs=${configs:-"$all $singles"}
here=$(cd "$(dirname "$0")" && pwd)
upfront=$builddir/upfront
. "$(dirname "$0")/lib.sh"
bench_init pa pa-cost

[ -x "$upfront" ] || { echo "no $upfront (build first)" >&2; exit 1; }
[ -w "$T/uprobe_events" ] || { echo "needs root and tracefs at $T" >&2; exit 1; }
gcc -O0 -g -o "$tmp/w" "$here/pa-cost.c" || exit 1
W=$tmp/w
have_perf=$(command -v perf >/dev/null 2>&1 && echo 1)

# the cost-aware definition, its place, and the floor's
def=$("$upfront" -x "$W" -D 'pa_target a b c s' | grep '^p:')
at=$(printf '%s\n' "$def" | awk '{ print $2 }')
args=${def#* * }
floor_args=
# the clock upfront's session picks (tracing.c: "local" where the TSC is the clocksource)
clock=mono
[ "$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2>/dev/null)" = tsc ] &&
	[[ $(uname -m) == x86_64 || $(uname -m) == i?86 ]] && clock=local

# run_w - the workload's line "WALL CPU P10 MEDIAN" (ns/call)
run_w() {
	"$W" "$calls" 2>&1 >/dev/null | grep -E '^[0-9.]+ [0-9.]+ [0-9.]+ [0-9.]+$' | tail -1
}

# kernel_only ARGS [session] - one run with "p:$G/k $at ARGS" enabled in a private instance,
# nobody reading; "session": the instance set up as upfront's session sets its own
kernel_only() {
	local ev=k$RANDOM
	echo "p:$G/$ev $at $1" >>"$T/uprobe_events" || return 1
	mkdir "$T/instances/$G"
	if [ "${2:-}" = session ]; then
		echo "$clock" >"$T/instances/$G/trace_clock"
		echo 1 >"$T/instances/$G/options/record-tgid"
		echo 1 >"$T/instances/$G/options/event-fork"
		echo 1 >"$T/instances/$G/events/$G/$ev/enable"
		sh -c "echo \$\$ >$T/instances/$G/set_event_pid; exec $W $calls" 2>&1 >/dev/null |
			grep -E '^[0-9.]+ [0-9.]+ [0-9.]+ [0-9.]+$' | tail -1
	else
		echo 1 >"$T/instances/$G/events/$G/$ev/enable"
		run_w
	fi
	echo 0 >"$T/instances/$G/events/$G/$ev/enable"
	rmdir "$T/instances/$G"
	echo "-:$G/$ev" >>"$T/uprobe_events"
}

# with_upfront UPFRONT ENV... - one run under upfront --json: "WALL CPU P10 MEDIAN EVENTS LOST"
with_upfront() {
	local out up=$1
	shift
	out=$(env "$@" "$up" --json -o "$tmp/up.json" -x "$W" 'pa_target a b c s' \
		-- "$W" "$calls" 2>&1 >/dev/null)
	printf '%s %s\n' \
		"$(printf '%s\n' "$out" | grep -E '^[0-9.]+ [0-9.]+ [0-9.]+ [0-9.]+$' | tail -1)" \
		"$(printf '%s\n' "$out" |
			sed -n 's/^upfront: \([0-9]*\) events, \([0-9]*\) lost$/\1 \2/p')"
}

# with_perf EVENT - one run under perf record -e EVENT: "WALL CPU P10 MEDIAN SAMPLES LOST"
with_perf() {
	local out n lost
	out=$(perf record -q -e "$1" -o "$tmp/perf.data" -- "$W" "$calls" 2>&1 >/dev/null)
	n=$(perf report -i "$tmp/perf.data" --stats 2>/dev/null |
		awk '/SAMPLE events:/ { print $3; exit }')
	lost=$(perf report -i "$tmp/perf.data" --stats 2>/dev/null |
		awk '/LOST_SAMPLES events:|LOST events:/ { s += $3 } END { print s + 0 }')
	printf '%s %s %s\n' \
		"$(printf '%s\n' "$out" | grep -E '^[0-9.]+ [0-9.]+ [0-9.]+ [0-9.]+$' | tail -1)" \
		"${n:-?}" "$lost"
	rm -f "$tmp/perf.data"
}

# perf_events - define the perf_rec (upfront's line) and perf_probe (perf's own) events;
# pa_up and pa_pp: perf 6.1's event parser refuses some names, "up" one of them
perf_events() {
	[ -n "$have_perf" ] || return
	echo "p:$G/pa_up $at $args" >>"$T/uprobe_events"
	perf probe -q -x "$W" -a "$G:pa_pp=pa_target a b c s:string" >/dev/null 2>&1 ||
		echo "# perf probe could not define pa_target a b c s:string" >&2
	pp_def=$(grep "^p:$G/pa_pp " "$T/uprobe_events")
}

perf_events
printf '# kernel %s; %s calls of pa_target (-O0) per run, %s rounds; load average %s\n' \
	"$(uname -r)" "$calls" "$rounds" "$(cut -d' ' -f1-3 /proc/loadavg)"
printf '# upfront:    %s\n' "${def#* }"
printf '# perf probe: %s\n' "${pp_def#* }"
printf '# session trace_clock: %s\n' "$clock"

declare -A res
for r in $(seq "$rounds"); do
	for k in $configs; do
		case $k in
		none) v=$(run_w) ;;
		floor) v=$(kernel_only "$floor_args") ;;
		kernel) v=$(kernel_only "$args") ;;
		settings) v=$(kernel_only "$args" session) ;;
		upfront) v=$(with_upfront "$upfront" UPFRONT_NONE=1) ;;
		upfront_mono) v=$(with_upfront "$upfront" UPFRONT_TRACE_CLOCK=mono) ;;
		upfront_other) v=$(with_upfront "$other/upfront" UPFRONT_NONE=1) ;;
		perf_rec) [ -n "$have_perf" ] && v=$(with_perf "$G:pa_up") || v= ;;
		perf_probe) [ -n "$pp_def" ] && v=$(with_perf "$G:pa_pp") || v= ;;
		kernel_a) v=$(kernel_only "a=%di:s64") ;;
		kernel_abc) v=$(kernel_only "a=%di:s64 b=%si:u64 c=%dx:x64") ;;
		kernel_s) v=$(kernel_only "s=+0(%cx):string") ;;
		kernel_abcx) v=$(kernel_only "a=%di:s64 b=%si:u64 c=%dx:x64 s=%cx:x64") ;;
		*) echo "unknown configuration $k" >&2; exit 2 ;;
		esac
		res[$k]+="${v:-x};"
	done
done

for k in $configs; do
	printf '%s|%s\n' "$k" "${res[$k]}"
done | python3 -c '
import sys, statistics as st
rows, order = {}, []
for line in sys.stdin:
    k, rest = line.rstrip("\n").split("|", 1)
    order.append(k)
    rows[k] = [r.split() for r in rest.split(";")[:-1]]
def col(k, i):
    return [float(r[i]) if len(r) > i and r[0] != "x" and r[i].replace(".", "").isdigit() else None
            for r in rows[k]]
def q(l, p):
    return l[min(len(l) - 1, int(p * len(l)))]
print("%-13s %9s %22s %22s %9s %8s %6s" % ("", "cpu ns", "cpu vs floor [q25-q75]",
      "p10 vs floor [q25-q75]", "wall ns", "events", "lost"))
for k in order:
    line = "%-13s" % k
    cpu = [x for x in col(k, 1) if x is not None]
    if not cpu:
        print(line + " no runs")
        continue
    line += " %9.1f" % st.median(cpu)
    for i in (1, 2):
        r = sorted(a / b for a, b in zip(col(k, i), col("floor", i)) if a and b) \
            if "floor" in rows else []
        line += " %22s" % ("%.2fx [%.2f-%.2f]" % (st.median(r), q(r, .25), q(r, .75))
                            if r else "-")
    wall = [x for x in col(k, 0) if x is not None]
    line += " %9.1f" % st.median(wall)
    ev = [r for r in rows[k] if len(r) >= 6 and r[0] != "x"]
    line += " %8s %6s" % ((ev[-1][4], sum(int(r[5]) for r in ev if r[5].isdigit()))
                          if ev else ("-", "-"))
    print(line)
'
echo "(cpu: the workload thread's CPU time per call; p10: the 10th percentile of batches of"
echo " 1,000 calls' wall time; ratios per round to that round's floor, median and quartiles;"
echo " wall: the whole run's wall time per call, the machine's load included; events: of the"
echo " last run, lost: all runs together)"
