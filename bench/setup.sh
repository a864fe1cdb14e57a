#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# setup.sh - what a session costs before its first event, by the number of probe points, and
# what a Go glob costs per function (issue 22: setup linear in the points)
#
# Usage: bench/setup.sh [-r RUNS] [-n "1000 2000 10000"] [-b BUILD]   (root: live sessions)
# Env:   UPFRONT=path/to/upfront  DOCKER=/usr/local/bin/docker
#
# 1. A generated C binary with N functions fn_00000 ... of the same three parameters (-g -O1,
#    one CU, called in order by main). A live session on 'fn_* a b s' -- the binary: seconds
#    from upfront's start to its first event line (--stdio --max-events 1), and its CPU (user
#    + system) over the whole run, median of RUNS; "beyond fixed" is that less the same for one
#    function ('fn_00000 a b s'), the goal's measure (10,000 functions: < 2 s). "kernel" is the
#    CPU a plain writer of the same uprobe_events lines takes (one line a write, then removed):
#    the kernel's own cost per line grows with every uprobe it has (validate_ref_ctr_offset()
#    visits each), which no tool can avoid; "upfront - kernel" is the rest.
# 2. Go globs: -D 'runtime.*' on docker (or 'main.*' on go/orders of the test targets): its
#    CPU (median of RUNS), and the same for -D of the glob's first function alone (the fixed
#    cost: starting, opening the DWARF, indexing it, the runtime's lookups); the goal's measure
#    is the glob's CPU beyond that, per function (functions: the glob's -F list, inlined-only
#    ones included): <= 0.2 ms. The CPU per point (a function's entry and its inlined copies)
#    is printed too.
# A -b BUILD directory runs its upfront too, on the same binaries, for before/after.
set -u

here=$(cd "$(dirname "$0")" && pwd)
UPFRONT=${UPFRONT:-$here/../upfront}
DOCKER=${DOCKER:-/usr/local/bin/docker}
RUNS=3
SIZES="1000 2000 10000"
other=
while getopts r:n:b: o; do
	case $o in
	r) RUNS=$OPTARG ;;
	n) SIZES=$OPTARG ;;
	b) other=$OPTARG/upfront ;;
	*) sed -n '3,19p' "$0"; exit 2 ;;
	esac
done
. "$here/lib.sh"
bench_init setup setup
if [ ! -x "$UPFRONT" ]; then
	echo "no upfront binary at $UPFRONT (build it, or set UPFRONT=)" >&2
	exit 1
fi

# gen N - $tmp/many_N: N functions of the same parameters, called in order by main
gen() {
	local n=$1 src=$tmp/many_$1.c i

	[ -x "$tmp/many_$n" ] && return 0
	{
		echo '#include <stdio.h>'
		for ((i = 0; i < n; i++)); do
			printf '__attribute__((noinline)) long fn_%05d(long a, int b, const char *s)\n' "$i"
			printf '{ return a * %d + b + s[0]; }\n' "$i"
		done
		echo 'int main(int argc, char **argv) {'
		echo '	long t = 0;'
		for ((i = 0; i < n; i++)); do
			printf '\tt += fn_%05d(t, argc, argv[0]);\n' "$i"
		done
		echo '	printf("%ld\n", t); return 0; }'
	} >"$src"
	echo "building a C binary with $n functions (-g -O1) ..." >&2
	gcc -g -O1 -o "$tmp/many_$n" "$src"
}

# first.py RUNS CMD...: "FIRST CPU" medians over RUNS runs: seconds from the start to the
# first line on stdout, and the run's CPU (user + system of the children)
cat >"$tmp/first.py" <<'PY'
import os, resource, statistics, subprocess, sys, time

runs, cmd = int(sys.argv[1]), sys.argv[2:]
firsts, cpus = [], []
for _ in range(runs):
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    line = p.stdout.readline()
    t1 = time.perf_counter()
    p.stdout.read()
    p.wait()
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    if not line:
        sys.stderr.write("no event from: %s\n" % " ".join(cmd))
        sys.exit(1)
    firsts.append(t1 - t0)
    cpus.append(r1.ru_utime + r1.ru_stime - r0.ru_utime - r0.ru_stime)
print("%.3f %.3f" % (statistics.median(firsts), statistics.median(cpus)))
PY

# kernel.py GROUP LINES-FILE: the CPU seconds of writing each line to uprobe_events (one a
# write, the group replaced by GROUP), then the event removed (not counted)
cat >"$tmp/kernel.py" <<'PY'
import os, sys

group, lines = sys.argv[1], [l.split(" ", 1) for l in open(sys.argv[2]) if l.startswith("p:")]
fd = os.open("/sys/kernel/tracing/uprobe_events", os.O_WRONLY | os.O_APPEND)
events = set()
t0 = os.times()
for head, rest in lines:
    ev = head.split("/", 1)[1]
    events.add(ev)
    os.write(fd, ("p:%s/%s %s" % (group, ev, rest)).encode())
t1 = os.times()
for ev in events:
    os.write(fd, ("-:%s/%s\n" % (group, ev)).encode())
print("%.3f" % (t1.user + t1.system - t0.user - t0.system))
PY

# session BINARY UPFRONT PROBE: "FIRST CPU"
session() {
	python3 "$tmp/first.py" "$RUNS" "$2" -x "$1" --stdio --max-events 1 "$3" -- "$1"
}

echo "== live session to the first event, $RUNS runs (median), load $(cut -d' ' -f1 /proc/loadavg)"
printf '%-10s %-8s %9s %9s %9s %9s %9s %9s\n' points build first beyond cpu beyond kernel \
	"upf-kern"
for n in $SIZES; do
	gen "$n" || exit 1
	bin=$tmp/many_$n
	for u in "$UPFRONT" $other; do
		label=$([ "$u" = "$UPFRONT" ] && echo this || echo other)
		one=($(session "$bin" "$u" 'fn_00000 a b s')) || exit 1
		all=($(session "$bin" "$u" 'fn_* a b s')) || exit 1
		"$u" -x "$bin" -g "$G" -D 'fn_* a b s' 2>/dev/null >"$tmp/lines"
		k=$(python3 "$tmp/kernel.py" "$G" "$tmp/lines")
		printf '%-10s %-8s %9s %9s %9s %9s %9s %9s\n' "$n" "$label" "${all[0]}" \
			"$(awk -v a="${all[0]}" -v b="${one[0]}" 'BEGIN { printf "%.3f", a - b }')" \
			"${all[1]}" \
			"$(awk -v a="${all[1]}" -v b="${one[1]}" 'BEGIN { printf "%.3f", a - b }')" \
			"$k" "$(awk -v a="${all[1]}" -v b="$k" 'BEGIN { printf "%.3f", a - b }')"
	done
done

go=$DOCKER glob='runtime.*'
[ -x "$go" ] || { go=$here/../tests/build/go/orders; glob='main.*'; }
# cpu CMD...: the median CPU seconds (user + system) of RUNS runs of CMD
cpu() {
	python3 - "$RUNS" "$@" <<'PY'
import resource, statistics, subprocess, sys
v = []
for _ in range(int(sys.argv[1])):
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(sys.argv[2:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    v.append(r1.ru_utime + r1.ru_stime - r0.ru_utime - r0.ru_stime)
print("%.3f" % statistics.median(v))
PY
}
echo "== Go glob -D '$glob' on $go, $RUNS runs (median CPU), load $(cut -d' ' -f1 /proc/loadavg)"
printf '%-6s %6s %7s %9s %9s %9s %12s %10s\n' build funcs points "cpu s" "one s" \
	"beyond s" "ms/function" "ms/point"
for u in "$UPFRONT" $other; do
	label=$([ "$u" = "$UPFRONT" ] && echo this || echo other)
	nf=$("$u" -x "$go" -F "$glob" 2>/dev/null | wc -l)
	first=$("$u" -x "$go" -F "$glob" 2>/dev/null | head -1)
	pts=$("$u" -x "$go" -D "$glob" 2>/dev/null | grep -c '^p:')
	all=$(cpu "$u" -x "$go" -D "$glob")
	one=$(cpu "$u" -x "$go" -D "$first")
	printf '%-6s %6d %7d %9s %9s %9s %12s %10s\n' "$label" "$nf" "$pts" "$all" "$one" \
		"$(awk -v a="$all" -v b="$one" 'BEGIN { printf "%.3f", a - b }')" \
		"$(awk -v a="$all" -v b="$one" -v n="$nf" 'BEGIN { if (n) printf "%.3f", (a - b) * 1000 / n }')" \
		"$(awk -v c="$all" -v n="$pts" 'BEGIN { if (n) printf "%.3f", c * 1000 / n }')"
done
echo "first function: $first; $(date -u '+%Y-%m-%d %H:%M UTC'), kernel $(uname -r)," \
	"load $(cut -d' ' -f1-3 /proc/loadavg)"
