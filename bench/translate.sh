#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# translate.sh - upfront vs perf probe: time to list functions and to translate probes (-F, -V, -D)
#
# Usage: bench/translate.sh [RUNS]      (root: perf probe reads tracefs even for -D)
# Env:   UPFRONT=path/to/upfront  DOCKER=/usr/local/bin/docker  NCLASSES=2000
# Prints one row per case: upfront mean, perf probe mean, upfront/perf ratio. A side that
# fails is shown as "fail" with its first error line below the table.
set -u

here=$(cd "$(dirname "$0")" && pwd)
UPFRONT=${UPFRONT:-$here/../upfront}
DOCKER=${DOCKER:-/usr/local/bin/docker}
NCLASSES=${NCLASSES:-2000}
RUNS=${1:-10}
work=$(mktemp -d /tmp/upfront-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT INT TERM
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

# mean_time CMD...: mean wall seconds over RUNS runs; returns the command's status
mean_time()
{
	local out=$work/out st i t0 t1

	"$@" > "$out" 2>&1
	st=$?
	if [ $st -ne 0 ]; then
		head -1 "$out" > "$work/err"
		return $st
	fi
	if command -v hyperfine > /dev/null; then
		hyperfine -N -w 1 -r "$RUNS" --export-json "$work/h.json" -- "$(printf '%q ' "$@")" \
			> /dev/null 2>&1 &&
			python3 -c 'import json,sys; print("%.4f" % json.load(open(sys.argv[1]))["results"][0]["mean"])' \
				"$work/h.json"
		return 0
	fi
	"$@" > /dev/null 2>&1	# warm the page cache
	t0=$(date +%s%N)
	for ((i = 0; i < RUNS; i++)); do
		"$@" > /dev/null 2>&1
	done
	t1=$(date +%s%N)
	awk -v ns=$((t1 - t0)) -v n="$RUNS" 'BEGIN { printf "%.4f\n", ns / n / 1e9 }'
}

# row LABEL -- UPFRONT-ARGS... -- PERF-ARGS...
row()
{
	local label=$1 up=() pf=() tu tp ratio
	shift 2
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		up+=("$1")
		shift
	done
	shift
	pf=("$@")
	if tu=$(mean_time "$UPFRONT" "${up[@]}"); then :; else
		notes+=("$label: upfront: $(cat "$work/err")")
		tu=fail
	fi
	if tp=$(mean_time perf probe -q "${pf[@]}"); then :; else
		notes+=("$label: perf: $(cat "$work/err")")
		tp=fail
	fi
	ratio=-
	if [ "$tu" != fail ] && [ "$tp" != fail ]; then
		ratio=$(awk -v a="$tu" -v b="$tp" 'BEGIN { printf "%.2f", a / b }')
	fi
	printf '%-44s %10s %10s %7s\n' "$label" "$tu" "$tp" "$ratio"
}

if [ ! -x "$UPFRONT" ]; then
	echo "no upfront binary at $UPFRONT (build it, or set UPFRONT=)" >&2
	exit 1
fi
echo "building a C++ binary with $NCLASSES classes (-g -O1) ..." >&2
gen_cpp || exit 1
big=$work/bigcpp
mid=$((NCLASSES / 2))
cobra='github.com/docker/cli/vendor/github.com/spf13/cobra.(*Command).Execute'

printf '%-44s %10s %10s %7s\n' "case ($RUNS runs, mean seconds)" upfront perf ratio
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
for n in "${notes[@]}"; do
	echo "note: $n"
done
