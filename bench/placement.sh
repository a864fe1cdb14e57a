#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# placement.sh - what the probe's place costs the traced program (issue 10), two parts:
#
# rate:  `long pa_target(long a, unsigned long b, void *c, const char *s)` built -O0, called
#        in a tight loop on one thread: ns per call with no probe, with the emulated-entry
#        floor (a bare probe on its first instruction, push %rbp, enabled, nobody reading),
#        with the plain placement's and the cost-aware placement's -D line (kernel only),
#        and `upfront --json 'pa_target a b c s'` both ways: ratio to the floor, events, lost.
#        Also %return: the uretprobe against a probe on the ret (the Go way), both kernel only.
#        (bench/pa-cost.sh takes pa_target apart: floor, fetch-args, the session's instance
#        settings, upfront reading and perf probe / perf record, by the thread's CPU time.)
# returns: the C, C++, Rust and Go test targets run their call sequence REPEAT times under
#        `upfront --json 'GLOB%return'` over their functions, plain and cost-aware: ns per
#        event (the run's time over the unprobed run's, per event), and where the uretprobes'
#        breakpoints are (Go probes each ret instead: nothing cheaper to move to).
# share: for every function of libc.so.6 (libc6-dbg), python3.11d and docker, the entry
#        probe upfront chooses (`FUNC $params`, or the bare FUNC when it has none to read)
#        before (UPFRONT_PLACEMENT=plain) and after: the share on an instruction the kernel
#        emulates; and on a sample of them perf probe's place for the same probe, classified
#        by the same table (upfront -v on the address perf chose).
#
# usage: bench/placement.sh [-n CALLS] [-r REPEATS] [-s SAMPLE] [-b BUILDDIR] [-p PARTS]
#        [-x "BINARY ..."] [-t TARGETS] [-R REPEAT]
#        (-p "rate returns share", the default; -s 0: no perf probe; TARGETS: the built test
#        targets, default BUILDDIR/tests/build)
# Needs root and tracefs (rate); perf (share). Cleans up on exit, INT, TERM and HUP.
set -u

calls=1000000 repeats=3 sample=100 parts="rate returns share" targets= rrepeat=5000
builddir=$(cd "$(dirname "$0")/.." && pwd)
bins="libc.so.6 /usr/bin/python3.11d /usr/local/bin/docker"
while getopts n:r:s:b:p:x:t:R: o; do
	case $o in
	n) calls=$OPTARG ;;
	r) repeats=$OPTARG ;;
	s) sample=$OPTARG ;;
	b) builddir=$OPTARG ;;
	p) parts=$OPTARG ;;
	x) bins=$OPTARG ;;
	t) targets=$OPTARG ;;
	R) rrepeat=$OPTARG ;;
	*) echo "usage: $0 [-n CALLS] [-r REPEATS] [-s SAMPLE] [-b BUILDDIR] [-p PARTS]" \
		"[-x BINARIES]" >&2
	   exit 2 ;;
	esac
done
upfront=$builddir/upfront
targets=${targets:-$builddir/tests/build}
. "$(dirname "$0")/lib.sh"
bench_init pl placement

[ -x "$upfront" ] || { echo "no $upfront (build first)" >&2; exit 1; }

# ---- rate ----------------------------------------------------------------------------------

# The workload: pa_target as the issue's hitloop has it, -O0 (its parameters in frame slots).
cat >"$tmp/w.c" <<'EOF'
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
volatile long sink;
long pa_target(long a, unsigned long b, void *c, const char *s)
{
	return a + (long)b + (c != 0) + s[0];
}
int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000000;
	struct timespec t0, t1;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (long i = 0; i < n; i++)
		sink += pa_target(i, 2 * i, (void *)&sink, "hello");
	clock_gettime(CLOCK_MONOTONIC, &t1);
	fprintf(stderr, "%.1f\n", ((t1.tv_sec - t0.tv_sec) * 1e9 + (t1.tv_nsec - t0.tv_nsec)) / n);
	return 0;
}
EOF

# once CMD... - ns/call of one run (the workload prints it on stderr)
once() {
	"$@" 2>&1 >/dev/null | grep -E '^[0-9.]+$' | tail -1
}

# kernel_only DEFLINE - ns/call of one run with the -D line DEFLINE enabled in a private
# instance, nobody reading
kernel_only() {
	local def="$1" ev=k$RANDOM
	[ -n "$def" ] || return 1
	echo "$def" | sed "s|^\([pr]\):[^ ]*|\1:$G/$ev|" >>"$T/uprobe_events" || return 1
	mkdir "$T/instances/$G"
	echo 1 >"$T/instances/$G/events/$G/$ev/enable"
	once "$W" "$calls"
	echo 0 >"$T/instances/$G/events/$G/$ev/enable"
	rmdir "$T/instances/$G"
	echo "-:$G/$ev" >>"$T/uprobe_events"
}

# with_upfront ENV - "ns/call events lost" of one run of `upfront --json 'pa_target a b c s'`
with_upfront() {
	local out ns n
	out=$(env "$@" "$upfront" --json -x "$W" 'pa_target a b c s' \
		-- "$W" "$calls" 2>&1 >"$tmp/up.json")
	ns=$(printf '%s\n' "$out" | grep -E '^[0-9.]+$' | tail -1)
	n=$(printf '%s\n' "$out" | sed -n 's/^upfront: \([0-9]*\) events, \([0-9]*\) lost$/\1 \2/p')
	[ -n "$ns" ] && [ -n "$n" ] && echo "$ns $n"
}

# row NAME NS [EVENTS LOST] - one line of the table
row() {
	printf '%-44s %10.1f %8.2fx %10s %8s\n' "$1" "$2" "$(echo "$2 / $floor" | bc -l)" \
		"${3:--}" "${4:--}"
}

rate() {
	gcc -O0 -g -o "$tmp/w" "$tmp/w.c" || exit 1
	W=$tmp/w
	[ -w "$T/uprobe_events" ] || { echo "rate: needs root and tracefs at $T" >&2; return; }
	local plain new floor_def ret_def rets ret_p r k v
	plain=$(UPFRONT_PLACEMENT=plain "$upfront" -x "$W" -D 'pa_target a b c s' | grep '^p:')
	new=$("$upfront" -v -x "$W" -D 'pa_target a b c s' 2>"$tmp/v" | grep '^p:')
	floor_def=$("$upfront" -x "$W" -D 'pa_target+0' | grep '^p:')
	ret_def=$("$upfront" -x "$W" -D 'pa_target%return $retval' | grep '^r:')
	# the ret instruction of pa_target, probed with p: as Go's %return is
	rets=$(objdump -d --no-show-raw-insn "$W" |
		awk '/<pa_target>:/ { f = 1; next } f && /^$/ { f = 0 } f && /\tret/ { print $1 }' |
		tr -d ':' | head -1)
	ret_p=$("$upfront" -x "$W" -D "0x$rets rv=%ax" | grep '^p:')
	printf '# kernel %s; %s calls of pa_target (-O0), %s rounds, min; load average %s\n' \
		"$(uname -r)" "$calls" "$repeats" "$(cut -d' ' -f1-3 /proc/loadavg)"
	printf '# plain:      %s\n# cost-aware: %s\n' "${plain#* }" "${new#* }"
	sed -n 's/^upfront: resolve: /# -v: /p' "$tmp/v"
	# rounds of every configuration in turn, so that the machine's load drifts over all alike
	declare -A min ev lost
	for r in $(seq "$repeats"); do
		for k in none floor plain new up_plain up_new uret ret; do
			case $k in
			none) v=$(once "$W" "$calls") ;;
			floor) v=$(kernel_only "$floor_def") ;;
			plain) v=$(kernel_only "$plain") ;;
			new) v=$(kernel_only "$new") ;;
			up_plain) v=$(with_upfront UPFRONT_PLACEMENT=plain) ;;
			up_new) v=$(with_upfront UPFRONT_NONE=1) ;;
			uret) v=$(kernel_only "$ret_def") ;;
			ret) v=$(kernel_only "$ret_p") ;;
			esac
			read -r v e l <<<"$v"
			[ -n "$v" ] || continue
			if [ -z "${min[$k]:-}" ] || [ "$(echo "$v < ${min[$k]}" | bc -l)" = 1 ]; then
				min[$k]=$v ev[$k]=${e:-} lost[$k]=${l:-}
			fi
		done
	done
	floor=${min[floor]:-1}
	printf '%-44s %10s %9s %10s %8s\n' "" ns/call vs-floor events lost
	row "no probe" "${min[none]:-0}"
	row "floor: bare probe on the entry (kernel only)" "$floor"
	row "plain placement, kernel only" "${min[plain]:-0}"
	row "cost-aware placement, kernel only" "${min[new]:-0}"
	row "upfront --json, plain placement" "${min[up_plain]:-0}" "${ev[up_plain]}" \
		"${lost[up_plain]}"
	row "upfront --json, cost-aware placement" "${min[up_new]:-0}" "${ev[up_new]}" \
		"${lost[up_new]}"
	row "%return: uretprobe, kernel only" "${min[uret]:-0}"
	row "%return: p: on the ret, kernel only" "${min[ret]:-0}"
}

# ---- returns -----------------------------------------------------------------------------

# secs CMD... - wall seconds of CMD
secs() {
	local t0 t1
	t0=$(date +%s.%N)
	"$@" >/dev/null 2>&1
	t1=$(date +%s.%N)
	echo "$t1 - $t0" | bc -l
}

# probed_secs BIN REPEAT DEFS-FILE - "seconds hits" of one run of BIN with every -D line of
# DEFS-FILE defined (as $G/r0, r1, ...) and enabled in a private instance, nobody reading
probed_secs() {
	local bin=$1 rep=$2 defs=$3 i=0 l s hits
	while read -r l; do
		echo "$l" | sed "s|^\([pr]\):[^ ]*|\1:$G/r$i|" >>"$T/uprobe_events" || return 1
		i=$((i + 1))
	done <"$defs"
	mkdir "$T/instances/$G"
	echo 1 >"$T/instances/$G/events/$G/enable"
	s=$(secs "$bin" "$rep")
	hits=$(awk -v bin="$bin" '$1 == bin && $2 ~ /^r[0-9]+$/ { n += $3 } END { print n + 0 }' \
		"$T/uprobe_profile")
	echo 0 >"$T/instances/$G/events/$G/enable"
	rmdir "$T/instances/$G"
	for ((k = 0; k < i; k++)); do
		echo "-:$G/r$k" >>"$T/uprobe_events"
	done
	echo "$s $hits"
}

returns() {
	[ -w "$T/uprobe_events" ] || { echo "returns: needs root and tracefs at $T" >&2; return; }
	printf '# %%return probes over each target'"'"'s functions, kernel only; the call sequence %s\n' \
		"$rrepeat"
	printf '# times, min of %s runs; ns per hit = (probed - unprobed run) / hits\n' "$repeats"
	printf '%-16s %-26s %9s %11s %11s %20s\n' target probe hits "plain ns" "cost-aware" \
		"emulated points"
	local t g bin r v base tp ta hits e ea ep
	for t in "c/orders-O2 [a-z]*%return" "cpp/actors-O2 shop::*%return" \
		 "rust/orders-O1 orders::shop::*%return" "go/orders main.*%return"; do
		set -- $t
		bin=$(readlink -f "$targets/$1") g=$2
		[ -x "$bin" ] || { echo "$1: not built (tests/targets/build.sh)"; continue; }
		UPFRONT_PLACEMENT=plain "$upfront" -x "$bin" -D "$g" | grep -E '^[pr]:' >"$tmp/dp"
		"$upfront" -x "$bin" -D "$g" | grep -E '^[pr]:' >"$tmp/da"
		base= tp= ta=
		for r in $(seq "$repeats"); do
			v=$(secs "$bin" "$rrepeat")
			{ [ -z "$base" ] || [ "$(echo "$v < $base" | bc -l)" = 1 ]; } && base=$v
			read -r v hits < <(probed_secs "$bin" "$rrepeat" "$tmp/dp")
			{ [ -z "$tp" ] || [ "$(echo "$v < $tp" | bc -l)" = 1 ]; } && tp=$v
			read -r v hits < <(probed_secs "$bin" "$rrepeat" "$tmp/da")
			{ [ -z "$ta" ] || [ "$(echo "$v < $ta" | bc -l)" = 1 ]; } && ta=$v
		done
		e=$(UPFRONT_PLACEMENT=plain "$upfront" -v -x "$bin" -D "$g" 2>&1 |
			grep 'resolve: ' | grep -vc 'single-stepped')
		ea=$("$upfront" -v -x "$bin" -D "$g" 2>&1 | grep 'resolve: ' | grep -vc 'single-stepped')
		ep=$("$upfront" -v -x "$bin" -D "$g" 2>&1 | grep -c 'resolve: ')
		printf '%-16s %-26s %9s %11.0f %11.0f %20s\n' "$1" "$g" "$hits" \
			"$(echo "($tp - $base) * 1000000000 / ($hits + 1)" | bc -l)" \
			"$(echo "($ta - $base) * 1000000000 / ($hits + 1)" | bc -l)" "$e -> $ea of $ep"
	done
	echo "(emulated points: the probe points whose instruction the kernel emulates, plain ->"
	echo " cost-aware: a uretprobe's breakpoint; Go's p: on each ret, which is single-stepped)"
}

# ---- share ---------------------------------------------------------------------------------

# v_sites - "FUNC VADDR COST" from upfront -v's line per probe point, inlined copies left out
v_sites() {
	grep -v '(an inlined copy)' |
		sed -n 's/^upfront: resolve: \(.*\) at 0x\([0-9a-f]*\): .* (\([a-z-]*\))[^(]*$/\1\t\2\t\3/p'
}

# placements BINARY [ENV] - "FUNC VADDR COST" per function: of `FUNC $params` where that
# resolves, else of the bare FUNC (upfront -v names each probe point's instruction)
placements() {
	local b=$1
	shift
	env "$@" "$upfront" -v -x "$b" -D '* $params' 2>&1 >/dev/null | v_sites >"$tmp/pp"
	env "$@" "$upfront" -v -x "$b" -D '*' 2>&1 >/dev/null | v_sites >"$tmp/pb"
	# first placement of each name: $params, then bare
	cat "$tmp/pp" "$tmp/pb" | awk -F'\t' '!seen[$1]++'
}

# share FILE - "emulated/total (percent)" of a placements list
share() {
	awk -F'\t' '{ n++ } $3 != "single-stepped" { e++ }
		END { printf "%d/%d (%.1f%%)", e, n, n ? 100 * e / n : 0 }' "$1"
}

# file_to_vaddr BINARY OFFSET - the virtual address of a file offset (executable PT_LOAD)
file_to_vaddr() {
	local o v sz
	while read -r o v sz; do
		if (($2 >= o && $2 < o + sz)); then
			printf '0x%x\n' $((v + $2 - o))
			return
		fi
	done < <(readelf -lW "$1" | awk '$1 == "LOAD" && / E|RWE/ { print $2, $3, $5 }')
}

# perf_cost BINARY FUNC - the cost class of perf probe's place for `FUNC $params` (or FUNC)
perf_cost() {
	local b=$1 f=$2 d off va
	# perf wants a path, not a soname
	[[ $b == */* ]] || b=$(ldconfig -p | awk -v n="$b" '$1 == n && /x86-64/ { print $NF; exit }')
	d=$(perf probe -q -x "$b" -D "$f \$params" 2>/dev/null | grep '^p:' | head -1)
	[ -n "$d" ] || d=$(perf probe -q -x "$b" -D "$f" 2>/dev/null | grep '^p:' | head -1)
	off=$(printf '%s\n' "$d" | sed -n 's/^p:[^ ]* [^ ]*:\(0x[0-9a-f]*\).*/\1/p')
	[ -n "$off" ] || { echo "none"; return; }
	va=$(file_to_vaddr "$b" "$off")
	"$upfront" -v -x "$b" -D "$va" 2>&1 >/dev/null |
		sed -n 's/^upfront: resolve: .* at 0x[0-9a-f]*: .* (\([a-z-]*\))[^(]*$/\1/p' | head -1
}

share_part() {
	printf '%-24s %22s %22s %6s %14s %14s %14s\n' binary "before (plain)" "after (cost-aware)" \
		sample "before" "after" "perf probe"
	for b in $bins; do
		placements "$b" UPFRONT_PLACEMENT=plain >"$tmp/before"
		placements "$b" UPFRONT_NONE=1 >"$tmp/after"
		local n k pe=0 pn=0 be=0 ae=0 f c
		n=$(wc -l <"$tmp/after")
		: >"$tmp/sample"
		if [ "$sample" -gt 0 ] && [ "$n" -gt 0 ] && command -v perf >/dev/null 2>&1; then
			k=$(( (n + sample - 1) / sample ))
			awk -F'\t' -v k="$k" 'NR % k == 1 || k == 1 { print $1 }' "$tmp/after" \
				>"$tmp/sample"
			while IFS= read -r f; do
				c=$(perf_cost "$b" "$f")
				[ "$c" = none ] || [ -z "$c" ] && continue
				pn=$((pn + 1))
				[ "$c" != single-stepped ] && pe=$((pe + 1))
				grep -qP "^\\Q$f\\E\\t[0-9a-f]+\\t(emulated|optimized)$" "$tmp/before" &&
					be=$((be + 1))
				grep -qP "^\\Q$f\\E\\t[0-9a-f]+\\t(emulated|optimized)$" "$tmp/after" &&
					ae=$((ae + 1))
			done <"$tmp/sample"
		fi
		printf '%-24s %22s %22s %6s %14s %14s %14s\n' "$(basename "$b")" \
			"$(share "$tmp/before")" "$(share "$tmp/after")" "$pn" \
			"$(pct "$be" "$pn")" "$(pct "$ae" "$pn")" "$(pct "$pe" "$pn")"
	done
	echo "(share: functions whose chosen entry instruction the kernel emulates (or optimizes),"
	echo " of the functions whose FUNC \$params (or bare FUNC) probe resolves; sample: every"
	echo " k-th of them where perf probe -D also gives a place, the same functions in each column)"
}

pct() {
	[ "$2" -gt 0 ] && printf '%d/%d %.0f%%' "$1" "$2" "$(echo "100 * $1 / $2" | bc -l)" || echo -
}

for p in $parts; do
	case $p in
	rate) rate ;;
	returns) returns ;;
	share) share_part ;;
	*) echo "unknown part $p" >&2; exit 2 ;;
	esac
	echo
done
