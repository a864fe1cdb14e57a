#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# translate.sh - upfront vs perf probe: time to list functions, translate probes (-F, -V, -D)
# and add a glob over 1000 functions (-a)
#
# Usage: bench/translate.sh [RUNS]      (root: perf probe reads tracefs even for -D)
# Env:   UPFRONT=path/to/upfront  DOCKER=/usr/local/bin/docker  NCLASSES=2000  NFUNCS=1100
# Prints one row per case: upfront and perf probe mean wall seconds and their ratio, then the
# same for CPU seconds (user + system: on a busy machine the wall time also measures the
# others' load, and upfront inflates debug sections on every core). A side that fails is
# shown as "fail" with its first error line below the table.
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

# timeit.py RUNS DELETE-CMD CMD...: "WALL CPU", the means over RUNS runs of CMD's wall time and
# of its CPU time (user + system, its children included), after one untimed run to warm the
# page cache. DELETE-CMD (a shell command, or "") runs untimed after each run. A failing
# first run prints its first output line to stderr and exits 1.
cat > "$work/timeit.py" <<'PY'
import resource, subprocess, sys, time

runs, delete, cmd = int(sys.argv[1]), sys.argv[2], sys.argv[3:]


def cleanup():
    if delete:
        subprocess.run(delete, shell=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)


cleanup()
first = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
cleanup()
if first.returncode:
    lines = first.stdout.decode(errors="replace").splitlines()
    sys.stderr.write((lines[0] if lines else "exit %d" % first.returncode) + "\n")
    sys.exit(1)
wall = cpu = 0.0
for _ in range(runs):
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall += time.perf_counter() - t0
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu += r1.ru_utime + r1.ru_stime - r0.ru_utime - r0.ru_stime
    cleanup()
print("%.4f %.4f" % (wall / runs, cpu / runs))
PY

# timed DELETE-CMD CMD...: "WALL CPU" or returns 1 with the first error line in $work/err
timed()
{
	python3 "$work/timeit.py" "$RUNS" "$@" 2> "$work/err"
}

# print_row LABEL "UPFRONT-WALL UPFRONT-CPU" "PERF-WALL PERF-CPU" (or "fail")
print_row()
{
	local label=$1 u=($2) p=($3) r=- rc=-

	if [ "${u[0]}" != fail ] && [ "${p[0]}" != fail ]; then
		r=$(awk -v a="${u[0]}" -v b="${p[0]}" 'BEGIN { printf "%.2f", a / b }')
		rc=$(awk -v a="${u[1]}" -v b="${p[1]}" 'BEGIN { printf "%.2f", a / b }')
	fi
	printf '%-40s %8s %8s %6s  %8s %8s %6s\n' "$label" "${u[0]}" "${p[0]}" "$r" \
		"${u[1]:--}" "${p[1]:--}" "$rc"
}

# row LABEL -- UPFRONT-ARGS... -- PERF-ARGS...
row()
{
	local label=$1 up=() pf=() tu tp

	shift 2
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		up+=("$1")
		shift
	done
	shift
	pf=("$@")
	if ! tu=$(timed "" "$UPFRONT" "${up[@]}"); then
		notes+=("$label: upfront: $(cat "$work/err")")
		tu=fail
	fi
	if ! tp=$(timed "" perf probe -q "${pf[@]}"); then
		notes+=("$label: perf: $(cat "$work/err")")
		tp=fail
	fi
	print_row "$label" "$tu" "$tp"
}

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

printf '%-40s %8s %8s %6s  %8s %8s %6s\n' "case ($RUNS runs, mean seconds)" upfront perf ratio \
	"cpu upf" "cpu perf" ratio
if [ -x "$DOCKER" ]; then
	row "docker -F '*'" -- -x "$DOCKER" -F '*' -- -x "$DOCKER" -F '*'
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
row "C++ x$NCLASSES -F '*'" -- -x "$big" -F '*' -- -x "$big" -F '*'
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
	if ! tu=$(timed "'$UPFRONT' -d 'upft_bench:*'" \
		"$UPFRONT" -x "$many" -g upft_bench -a 'fn_* a b s'); then
		notes+=("C -a: upfront: $(cat "$work/err")")
		tu=fail
	fi
	if ! tp=$(timed "perf probe -q -d 'probe_upft_many:*'" \
		perf probe -q -x "$many" "${perf_a[@]}"); then
		notes+=("C -a: perf: $(cat "$work/err")")
		tp=fail
	fi
	print_row "C x$NFUNCS -a 'fn_* a b s' (add)" "$tu" "$tp"
else
	notes+=("tracefs not writable: -a skipped")
fi
for n in "${notes[@]}"; do
	echo "note: $n"
done
