#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# stack-cost.sh - what --stack costs per event: the kernel's frame-pointer walk (--stack=fp)
# against a copy of the stack top unwound by CFI (--stack=dwarf,BYTES), issue 22.
#
# Workload (bench/stack-cost.c, -O2, no frame pointers): leaf() called CALLS times from DEPTH
# frames of recursion; leaf's first instruction is a nop, which the kernel emulates. Per
# configuration, run in turn ROUNDS times (the machine is shared: the configurations
# alternate so that load drifts over all alike), the best of the rounds of:
#   ns/call   the workload thread's own CPU time per call (what the probe, the fetch-args and
#             the kernel's stack walk cost the thread: they run in its context)
#   +ns       that less the probe alone (upfront --json, no --stack): what the stack adds
#   x fp      +ns as a multiple of --stack=fp's +ns
#   us/ev     upfront's own CPU (user+sys) per event it wrote: decoding, unwinding, naming
#   frames    the frames of the last event, and "cut" when its stack was cut at the copy's end
# DEPTH (default 200) keeps every copy within frames of the recursion (-d 8: the copy reaches
# libc's and _start's frames and the environment above them, at the same cost). Results
# (2026-11-27, 6.18, load ~15): doc/performance.md, Stacks.
#
# usage: bench/stack-cost.sh [-n CALLS] [-r ROUNDS] [-d DEPTH] [-b BUILDDIR] [-s "BYTES ..."]
# Needs root and tracefs (upfront runs its own sessions; nothing is left behind).
set -u

calls=50000 rounds=5 depth=200 builddir=$(cd "$(dirname "$0")/.." && pwd)
sizes="256 512 1024 2048 2936"
while getopts n:r:d:b:s: o; do
	case $o in
	n) calls=$OPTARG ;;
	r) rounds=$OPTARG ;;
	d) depth=$OPTARG ;;
	b) builddir=$OPTARG ;;
	s) sizes=$OPTARG ;;
	*) echo "usage: $0 [-n CALLS] [-r ROUNDS] [-d DEPTH] [-b BUILDDIR] [-s \"BYTES ...\"]" >&2
	   exit 2 ;;
	esac
done
here=$(cd "$(dirname "$0")" && pwd)
upfront=$builddir/upfront
[ -x "$upfront" ] || { echo "no $upfront (build first)" >&2; exit 1; }
tmp=$(mktemp -d /tmp/upfront-stack-cost.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM HUP
gcc -O2 -g -o "$tmp/w" "$here/stack-cost.c" || exit 1
W=$tmp/w

# run KEY [OPTION] - one round of configuration KEY: "NS_PER_CALL US_PER_EVENT EVENTS LOST"
# into $tmp/r.KEY (appended), the last event's stack into $tmp/st.KEY
run() {
	local t0 t1 ns ev lost
	if [ "$1" = none ]; then
		ns=$("$W" "$calls" "$depth" | cut -d' ' -f1)
		echo "$ns 0 0 0" >>"$tmp/r.$1"
		return
	fi
	t0=$(awk '{ print $14 + $15 + $16 + $17 }' /proc/$$/stat)
	# shellcheck disable=SC2086
	( "$upfront" --json -o "$tmp/ev" ${2:-} -x "$W" leaf -- "$W" "$calls" "$depth" \
		>"$tmp/out" 2>"$tmp/err" )
	t1=$(awk '{ print $14 + $15 + $16 + $17 }' /proc/$$/stat)
	ns=$(cut -d' ' -f1 "$tmp/out")
	read -r ev lost < <(sed -n 's/^upfront: \([0-9]*\) events, \([0-9]*\) lost.*/\1 \2/p' \
		"$tmp/err")
	# children's ticks less the workload's own time: upfront's CPU, per event written
	awk -v t="$((t1 - t0))" -v hz="$(getconf CLK_TCK)" -v ns="$ns" -v c="$calls" \
		-v ev="${ev:-0}" -v lost="${lost:-0}" 'BEGIN {
		up = t / hz * 1e6 - ns * c / 1e3
		printf "%s %.1f %d %d\n", ns, (ev > 0 ? up / ev : 0), ev, lost }' >>"$tmp/r.$1"
	tail -1 "$tmp/ev" >"$tmp/st.$1"
}

keys="none probe fp"
for s in $sizes; do
	keys+=" d$s"
done
for ((r = 0; r < rounds; r++)); do
	for k in $keys; do
		case $k in
		none | probe) run "$k" ;;
		fp) run fp --stack=fp ;;
		d*) run "$k" "--stack=dwarf,${k#d}" ;;
		esac
	done
done

# best KEY COLUMN - the smallest value of COLUMN over the rounds
best() {
	sort -g -k"$2" "$tmp/r.$1" | head -1 | cut -d' ' -f"$2"
}
frames() {
	python3 -c '
import json, sys
e = json.loads(open(sys.argv[1]).read())
print(len(e.get("stack", [])), "cut" if "stack_cut" in e else "")' "$tmp/st.$1" 2>/dev/null || echo -
}
probe=$(best probe 1)
fp_add=$(awk -v a="$(best fp 1)" -v p="$probe" 'BEGIN { print a - p }')
printf '# %s, kernel %s, load %s; %s calls, depth %s, best of %s rounds\n' "$(date -u +%F)" \
	"$(uname -r)" "$(cut -d' ' -f1-3 /proc/loadavg)" "$calls" "$depth" "$rounds"
printf '%-12s %9s %9s %7s %8s %s\n' config ns/call +ns "x fp" us/ev frames
for k in $keys; do
	case $k in
	none) name="no probe" ;;
	probe) name="probe" ;;
	fp) name="--stack=fp" ;;
	d*) name="dwarf,${k#d}" ;;
	esac
	ns=$(best "$k" 1)
	awk -v n="$name" -v ns="$ns" -v p="$probe" -v f="$fp_add" -v us="$(best "$k" 2)" \
		-v k="$k" -v fr="$( [ "$k" = none ] || frames "$k")" 'BEGIN {
		add = (k == "none" || k == "probe") ? "-" : sprintf("%.0f", ns - p)
		x = (k ~ /^d/ && f > 0) ? sprintf("%.1fx", (ns - p) / f) : "-"
		printf "%-12s %9.0f %9s %7s %8s %s\n", n, ns, add, x, (k == "none" ? "-" : us), fr }'
done
