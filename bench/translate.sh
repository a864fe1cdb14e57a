#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# translate.sh - upfront vs perf probe: time to list functions, translate probes (-F, -V, -D)
# and add a glob over 1000 functions (-a)
#
# Usage: bench/translate.sh [RUNS]      (root: perf probe reads tracefs even for -D)
# Env:   UPFRONT=path/to/upfront  DOCKER=/usr/local/bin/docker  NCLASSES=2000  NFUNCS=1100
# Prints one row per case: upfront's and perf probe's median wall seconds and their ratio
# (upfront / perf), the same for CPU seconds (user + system of the one process: on a busy
# machine the wall time also measures the others' load, and upfront inflates debug sections
# on every core), then for the maximum resident set (MB). The two tools run alternately,
# RUNS times each, after one untimed run of each. A side that fails is shown as "fail" with
# its first error line below the table; then the date, kernel and load average.
#
# -F rows: "cached" is what a second -F of the binary costs (upfront keeps the list of
# inlined-only functions by build-id, in a cache directory made for the run: the warm-up
# run writes it); "UPFRONT_CACHE=off" is every first run (the DWARF read and inflated).
#
# The -a rows time the add only; the events are deleted after each run (upfront -d,
# perf probe -d), untimed. upfront puts a glob's points into one event when their fields
# agree; perf probe makes one event per point and takes at most 128 points per probe, so
# it gets the glob as NFUNCS/100 globs ('fn_00*' 'fn_01*' ...) of 100 functions each.
set -u

here=$(cd "$(dirname "$0")" && pwd)
UPFRONT=${UPFRONT:-$here/../upfront}
DOCKER=${DOCKER:-/usr/local/bin/docker}
NCLASSES=${NCLASSES:-2000}
NFUNCS=${NFUNCS:-1100}
RUNS=${1:-10}
work=$(mktemp -d /tmp/upfront-bench.XXXXXX)
export XDG_CACHE_HOME=$work/cache	# upfront's cache for the "cached" rows, not the user's
cleanup()
{
	if [ -f "$work/upft_many" ]; then
		"$UPFRONT" -d 'upft_bench:*' > /dev/null 2>&1
		perf probe -q -d 'probe_upft_many:*' > /dev/null 2>&1
	fi
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
notes=()

# A large C++ binary: NCLASSES classes in 20 namespaces, each with a virtual and an
# overloaded method, compiled -g -O1.
gen_cpp()
{
	local src=$work/big.cpp i
	{
		echo '#include <cstdio>'
		echo '#include <string>'
		echo 'struct Base { virtual long run(long v) = 0; virtual ~Base() {} };'
		for ((i = 0; i < NCLASSES; i++)); do
			printf 'namespace ns%d { struct Class%d : Base {\n' $((i % 20)) "$i"
			printf '\tstd::string name; long count = %d;\n' "$i"
			printf '\t__attribute__((noinline)) long handle%d(long x, const std::string &s);\n' "$i"
			printf '\tlong run(long v) override { return v * %d + count; }\n' "$i"
			printf '\tlong get(int a) { return a + count; }\n'
			printf '\tlong get(double d) { return (long)d - count; }\n'
			printf '}; long Class%d::handle%d(long x, const std::string &s)\n' "$i" "$i"
			printf '{ count += x + (long)s.size(); return get((int)x) + get(1.5) + count; } }\n'
		done
		echo 'int main(int argc, char **argv) {'
		echo '	long t = 0; std::string s(argv[0]);'
		for ((i = 0; i < NCLASSES; i++)); do
			printf '\t{ ns%d::Class%d c; Base *b = &c; t += c.handle%d(argc, s) + b->run(t); }\n' \
				$((i % 20)) "$i" "$i"
		done
		echo '	printf("%ld\n", t); return 0; }'
	} > "$src"
	g++ -g -O1 -o "$work/bigcpp" "$src"
}

# A C binary with NFUNCS functions fn_0000 ... of the same three parameters, -g -O1.
gen_many()
{
	local src=$work/many.c i
	{
		echo '#include <stdio.h>'
		for ((i = 0; i < NFUNCS; i++)); do
			printf '__attribute__((noinline)) long fn_%04d(long a, int b, const char *s)\n' "$i"
			printf '{ return a * %d + b + s[0]; }\n' "$i"
		done
		echo 'int main(int argc, char **argv) {'
		echo '	long t = 0;'
		for ((i = 0; i < NFUNCS; i++)); do
			printf '\tt += fn_%04d(t, argc, argv[0]);\n' "$i"
		done
		echo '	printf("%ld\n", t); return 0; }'
	} > "$src"
	gcc -g -O1 -o "$work/upft_many" "$src"
}

# timeit.py RUNSTAT RUNS DELETE-U DELETE-P CMD-U... -- CMD-P...: the two commands alternated RUNS
# times each (upfront first, then perf, then upfront ...), after one untimed run of each to
# warm the page cache (and upfront's cache, where a row wants it), each run through RUNSTAT
# (bench/runstat.c). Prints the medians: "WALL-U CPU-U RSS-U WALL-P CPU-P RSS-P" (seconds;
# CPU = user + system of that process alone, from wait4(); RSS = its maximum resident set in
# KB). DELETE-U/-P (shell commands, or "") run
# untimed after each run of their side. A failing first run of a side prints "SIDE: " and
# its first output line to stderr, and that side's columns are "fail".
cat > "$work/timeit.py" <<'PY'
import statistics, subprocess, sys

runstat, runs, delete = sys.argv[1], int(sys.argv[2]), sys.argv[3:5]
rest = sys.argv[5:]
sep = rest.index("--")
cmds = [rest[:sep], rest[sep + 1:]]


def cleanup(side):
    if delete[side]:
        subprocess.run(delete[side], shell=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)


def one(side):
    out = subprocess.run([runstat] + cmds[side], stdout=subprocess.PIPE).stdout.split()
    cleanup(side)
    return float(out[0]), float(out[1]), int(out[2])


ok = []
for side in (0, 1):
    cleanup(side)
    first = subprocess.run(cmds[side], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    cleanup(side)
    ok.append(first.returncode == 0)
    if not ok[side]:
        lines = first.stdout.decode(errors="replace").splitlines()
        sys.stderr.write("%s: %s\n" % ("upfront perf".split()[side],
                                       lines[0] if lines else "exit %d" % first.returncode))
res = [[], []]
for _ in range(runs):
    for side in (0, 1):
        if ok[side]:
            res[side].append(one(side))
out = []
for side in (0, 1):
    if ok[side]:
        out += ["%.4f" % statistics.median(r[k] for r in res[side]) for k in (0, 1)]
        out.append("%d" % statistics.median(r[2] for r in res[side]))
    else:
        out += ["fail"] * 3
print(" ".join(out))
PY

# print_row LABEL "WALL-U CPU-U RSS-U WALL-P CPU-P RSS-P" (medians; "fail" for a side)
print_row()
{
	local label=$1 v=($2) r=- rc=- rm=-

	if [ "${v[0]}" != fail ] && [ "${v[3]}" != fail ]; then
		r=$(awk -v a="${v[0]}" -v b="${v[3]}" 'BEGIN { printf "%.2f", a / b }')
		rc=$(awk -v a="${v[1]}" -v b="${v[4]}" 'BEGIN { printf "%.2f", a / b }')
		rm=$(awk -v a="${v[2]}" -v b="${v[5]}" 'BEGIN { printf "%.2f", a / b }')
	fi
	printf '%-40s %7s %7s %5s  %7s %7s %5s  %6s %6s %5s\n' "$label" "${v[0]}" "${v[3]}" "$r" \
		"${v[1]}" "${v[4]}" "$rc" "$(kb_mb "${v[2]}")" "$(kb_mb "${v[5]}")" "$rm"
}

# kb_mb KB: megabytes with one decimal, or what was given ("fail")
kb_mb()
{
	case $1 in
	*[!0-9]*|'') echo "$1" ;;
	*) awk -v k="$1" 'BEGIN { printf "%.1f", k / 1024 }' ;;
	esac
}

# row LABEL -- UPFRONT-ARGS... -- PERF-ARGS...  (upfront's may start with VAR=VALUE words)
row()
{
	local label=$1 up=() pf=() env=() v

	shift 2
	while [ $# -gt 0 ] && [[ $1 == *=* ]] && [[ $1 != -* ]]; do
		env+=("$1")
		shift
	done
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		up+=("$1")
		shift
	done
	shift
	pf=("$@")
	v=$(python3 "$work/timeit.py" "$work/runstat" "$RUNS" "" "" env "${env[@]}" "$UPFRONT" "${up[@]}" \
		-- perf probe -q "${pf[@]}" 2> "$work/err")
	[ -s "$work/err" ] && notes+=("$label: $(tr '\n' ' ' < "$work/err")")
	print_row "$label" "$v"
}

gcc -O2 -o "$work/runstat" "$here/runstat.c" || exit 1
if [ ! -x "$UPFRONT" ]; then
	echo "no upfront binary at $UPFRONT (build it, or set UPFRONT=)" >&2
	exit 1
fi
echo "building a C++ binary with $NCLASSES classes (-g -O1) ..." >&2
gen_cpp || exit 1
echo "building a C binary with $NFUNCS functions (-g -O1) ..." >&2
gen_many || exit 1
many=$work/upft_many
perf_globs=()
for ((i = 0; i * 100 < NFUNCS; i++)); do
	perf_globs+=("fn_$(printf %02d $i)*")
done
big=$work/bigcpp
mid=$((NCLASSES / 2))
cobra='github.com/docker/cli/vendor/github.com/spf13/cobra.(*Command).Execute'

uptime_start=$(cut -d' ' -f1-3 /proc/loadavg)
printf '%-40s %7s %7s %5s  %7s %7s %5s  %6s %6s %5s\n' "case (median of $RUNS, s / MB)" \
	upfront perf ratio "cpu upf" "perf" ratio "MB upf" "perf" ratio
if [ -x "$DOCKER" ]; then
	row "docker -F '*' (cached)" -- -x "$DOCKER" -F '*' -- -x "$DOCKER" -F '*'
	row "docker -F '*' (UPFRONT_CACHE=off)" -- UPFRONT_CACHE=off -x "$DOCKER" -F '*' \
		-- -x "$DOCKER" -F '*'
	row "docker -V cobra Execute" -- -x "$DOCKER" -V "$cobra" -- -x "$DOCKER" -V "$cobra"
	row "docker -D cobra Execute" -- -x "$DOCKER" -D "$cobra" -- -x "$DOCKER" -D "$cobra"
	row "docker -D cobra Execute c" -- -x "$DOCKER" -D "$cobra c" -- -x "$DOCKER" -D "$cobra c"
else
	notes+=("no $DOCKER: docker cases skipped")
fi
row "libc.so.6 -D getaddrinfo (separate dbg)" -- -x libc.so.6 -D getaddrinfo \
	-- -x "$(realpath /lib/x86_64-linux-gnu/libc.so.6)" -D getaddrinfo
row "libc.so.6 -D getaddrinfo name service" -- -x libc.so.6 -D 'getaddrinfo name service' \
	-- -x "$(realpath /lib/x86_64-linux-gnu/libc.so.6)" -D 'getaddrinfo name service'
row "C++ x$NCLASSES -F '*' (cached)" -- -x "$big" -F '*' -- -x "$big" -F '*'
row "C++ x$NCLASSES -F '*' (UPFRONT_CACHE=off)" -- UPFRONT_CACHE=off -x "$big" -F '*' \
	-- -x "$big" -F '*'
row "C++ x$NCLASSES -D method x" -- -x "$big" -D "ns$((mid % 20))::Class$mid::handle$mid x" \
	-- -x "$big" -D "handle$mid x"
row "C++ x$NCLASSES -V method" -- -x "$big" -V "ns$((mid % 20))::Class$mid::handle$mid" \
	-- -x "$big" -V "handle$mid"
perf_d=() perf_a=()
for g in "${perf_globs[@]}"; do
	perf_d+=(-D "$g a b s")
	perf_a+=(-a "$g a b s")
done
row "C x$NFUNCS -D 'fn_* a b s'" -- -x "$many" -D 'fn_* a b s' -- -x "$many" "${perf_d[@]}"
if [ -w /sys/kernel/tracing/uprobe_events ]; then
	v=$(python3 "$work/timeit.py" "$work/runstat" "$RUNS" "'$UPFRONT' -d 'upft_bench:*'" \
		"perf probe -q -d 'probe_upft_many:*'" \
		"$UPFRONT" -x "$many" -g upft_bench -a 'fn_* a b s' -- \
		perf probe -q -x "$many" "${perf_a[@]}" 2> "$work/err")
	[ -s "$work/err" ] && notes+=("C -a: $(tr '\n' ' ' < "$work/err")")
	print_row "C x$NFUNCS -a 'fn_* a b s' (add)" "$v"
else
	notes+=("tracefs not writable: -a skipped")
fi
for n in "${notes[@]}"; do
	echo "note: $n"
done
echo "$(date -u '+%Y-%m-%d %H:%M UTC'), kernel $(uname -r), load $uptime_start at the start," \
	"$(cut -d' ' -f1-3 /proc/loadavg) at the end"
