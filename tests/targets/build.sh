#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# build.sh - build every test target (C, C++, Go, Rust) into OUTDIR; skips what is up to date
#
# usage: tests/targets/build.sh OUTDIR [TARGET...]
# TARGET names a binary under OUTDIR (go/dnsfwd, c/orders-O2); without one, all are built.
# Works offline and as root on a clean machine: Go's cache and path live under OUTDIR and the
# Go module has no external dependencies. Prints one line per target built; exits non-zero
# when a compiler is missing or a build fails (a missing prerequisite is a failure, not a skip).
set -euo pipefail

src=$(cd "$(dirname "$0")" && pwd)
out=${1:?usage: build.sh OUTDIR [TARGET...]}
shift
only=" $* "
mkdir -p "$out"/{c,cpp,go,rust}
out=$(cd "$out" && pwd)

CC=${CC:-gcc}
CXX=${CXX:-g++}
GO=${GO:-go}
RUSTC=${RUSTC:-rustc}

fail=0

need() {
	if ! command -v "$1" >/dev/null 2>&1; then
		echo "build.sh: $1 not found (run scripts/install-deps.sh)" >&2
		fail=1
		return 1
	fi
}

# wants PREFIX - true when no TARGET was named or one starts with PREFIX ("go/", "go/orders ")
wants() {
	[ "$only" = "  " ] && return 0
	case "$only" in *" $1"*) return 0 ;; esac
	return 1
}

# uptodate OUTPUT INPUT... - true when OUTPUT exists and is newer than every INPUT and this script
uptodate() {
	local o=$1 f
	shift
	[ -e "$o" ] || return 1
	for f in "$@" "$src/build.sh"; do
		[ "$f" -nt "$o" ] && return 1
	done
	return 0
}

# build OUTPUT "INPUTS" CMD... - run CMD unless OUTPUT is up to date
build() {
	local o=$1 inputs=$2
	shift 2
	wants "${o#"$out"/} " || return 0
	# shellcheck disable=SC2086
	if uptodate "$o" $inputs; then
		return 0
	fi
	echo "  BUILD    ${o#"$out"/}"
	if ! "$@"; then
		echo "build.sh: failed: $*" >&2
		rm -f "$o"
		fail=1
	fi
}

# C: -O0 and -O2 (PIE, the Debian default), a non-PIE -O0 copy and a stripped copy.
if wants c/ && need "$CC"; then
	c=$src/c/orders.c
	build "$out/c/orders-O0" "$c" $CC -g -O0 -Wall -o "$out/c/orders-O0" "$c"
	build "$out/c/orders-O2" "$c" $CC -g -O2 -Wall -o "$out/c/orders-O2" "$c"
	build "$out/c/orders-O0-nopie" "$c" $CC -g -O0 -Wall -no-pie -fno-pie \
		-o "$out/c/orders-O0-nopie" "$c"
	# lines.c: source-line places and locals (tests/e2e/lines.sh)
	if [ -e "$src/c/lines.c" ]; then
		for o in O0 O2; do
			build "$out/c/lines-$o" "$src/c/lines.c" $CC -g -$o -Wall \
				-o "$out/c/lines-$o" "$src/c/lines.c"
		done
	fi
	# values.c: constants, array bounds and dimensions (tests/e2e/cases/c.cases)
	if [ -e "$src/c/values.c" ]; then
		for o in O0 O2; do
			build "$out/c/values-$o" "$src/c/values.c" $CC -g -$o -Wall \
				-o "$out/c/values-$o" "$src/c/values.c"
		done
	fi
	# sortcb.c: a callback through libc's qsort, no frame pointers (tests/e2e/stack-cfi.sh)
	build "$out/c/sortcb-O2" "$src/c/sortcb.c" $CC -g -O2 -Wall -o "$out/c/sortcb-O2" \
		"$src/c/sortcb.c"
	# the same with return addresses signed where the compiler can (arm64's pac-ret: the
	# caller's address in x30 and in the frame records carries a pointer authentication
	# code; stack-cfi.sh on arm64); x86-64's gcc has no such option and builds none
	if echo 'int main(void) { return 0; }' |
		$CC -mbranch-protection=pac-ret -x c -o /dev/null - 2>/dev/null; then
		build "$out/c/sortcb-pac" "$src/c/sortcb.c" $CC -g -O2 -Wall \
			-mbranch-protection=pac-ret -o "$out/c/sortcb-pac" "$src/c/sortcb.c"
	fi
	# entry.c: parameters at a function's entry from the ABI (tests/e2e/cases/entry.cases)
	if [ -e "$src/c/entry.c" ]; then
		for o in O0 O2; do
			build "$out/c/entry-$o" "$src/c/entry.c" $CC -g -$o -Wall \
				-o "$out/c/entry-$o" "$src/c/entry.c"
		done
	fi
	# sdt.c + sdt-guarded.c: SDT probes from <sys/sdt.h> (systemtap-sdt-dev), with and
	# without semaphores (tests/e2e/sdt.sh)
	if [ -e "$src/c/sdt.c" ]; then
		for o in O0 O2; do
			build "$out/c/sdt-$o" "$src/c/sdt.c $src/c/sdt-guarded.c" $CC -g -$o -Wall \
				-o "$out/c/sdt-$o" "$src/c/sdt.c" "$src/c/sdt-guarded.c"
		done
	fi
	# reach.c: an inlined-only function, an old symbol version, :sym into libc
	# (tests/e2e/reach.sh)
	if [ -e "$src/c/reach.c" ]; then
		for o in O0 O2; do
			build "$out/c/reach-$o" "$src/c/reach.c" $CC -g -$o -Wall -pthread \
				-o "$out/c/reach-$o" "$src/c/reach.c"
		done
	fi
	# ticks.c: a signal handler's stack through the vDSO's callers (tests/e2e/reach.sh);
	# frame pointers kept so the kernel's walk goes through the handler
	if [ -e "$src/c/ticks.c" ]; then
		build "$out/c/ticks-O0" "$src/c/ticks.c" $CC -g -O0 -fno-omit-frame-pointer -Wall \
			-o "$out/c/ticks-O0" "$src/c/ticks.c"
	fi
	# inlined.c: a call from two always_inline helpers inlined into main, frame pointers
	# kept so the kernel's walk reaches libc (tests/e2e/stack-inline.sh)
	if [ -e "$src/c/inlined.c" ]; then
		build "$out/c/inlined-O2" "$src/c/inlined.c" $CC -g -O2 -fno-omit-frame-pointer \
			-Wall -o "$out/c/inlined-O2" "$src/c/inlined.c"
	fi
	# whole.c: structs, unions, arrays shown whole (tests/e2e/cases/whole.cases, whole.sh)
	if [ -e "$src/c/whole.c" ]; then
		for o in O0 O2; do
			build "$out/c/whole-$o" "$src/c/whole.c" $CC -g -$o -Wall \
				-o "$out/c/whole-$o" "$src/c/whole.c"
		done
	fi
	# calls.c: output floods and durations (tests/e2e/output.sh, durations.sh)
	if [ -e "$src/c/calls.c" ]; then
		for o in O0 O2; do
			build "$out/c/calls-$o" "$src/c/calls.c" $CC -g -$o -Wall -pthread \
				-o "$out/c/calls-$o" "$src/c/calls.c"
		done
	fi
	# nums.c: 128-bit integers, complex numbers, Inf/NaN, faults, doubles in xmm
	# (tests/e2e/cases/nums.cases)
	if [ -e "$src/c/nums.c" ]; then
		for o in O0 O2; do
			build "$out/c/nums-$o" "$src/c/nums.c" $CC -g -$o -Wall \
				-o "$out/c/nums-$o" "$src/c/nums.c" -lm
		done
	fi
	# clones.c: gcc -O2 clones (.isra, .constprop) whose parameters the callers give, and an
	# inline function whose copies start outside their ranges (tests/e2e/cases/clones.cases)
	if [ -e "$src/c/clones.c" ]; then
		build "$out/c/clones-O2" "$src/c/clones.c" $CC -g -O2 -Wall \
			-o "$out/c/clones-O2" "$src/c/clones.c"
	fi
	if [ -e "$out/c/orders-O2" ]; then
		build "$out/c/orders-stripped" "$out/c/orders-O2" \
			${STRIP:-strip} -o "$out/c/orders-stripped" "$out/c/orders-O2"
	fi
fi

# C++: -O0 and -O2.
if wants cpp/ && need "$CXX"; then
	cc=$src/cpp/actors.cpp
	build "$out/cpp/actors-O0" "$cc" $CXX -g -O0 -Wall -o "$out/cpp/actors-O0" "$cc"
	build "$out/cpp/actors-O2" "$cc" $CXX -g -O2 -Wall -o "$out/cpp/actors-O2" "$cc"
	# mailbox.cpp: smart pointers, casts, dynamic types (the CAF note); also with libc++
	cc=$src/cpp/mailbox.cpp
	if [ -e "$cc" ]; then
		for o in O0 O2; do
			build "$out/cpp/mailbox-$o" "$cc" $CXX -g -$o -Wall -o "$out/cpp/mailbox-$o" "$cc"
		done
		if need "${CLANGXX:-clang++}"; then
			for o in O0 O2; do
				build "$out/cpp/mailbox-libcxx-$o" "$cc" "${CLANGXX:-clang++}" -g -$o \
					-Wall -stdlib=libc++ -o "$out/cpp/mailbox-libcxx-$o" "$cc"
			done
		fi
	fi
	# bases.cpp: std::string short and long (libstdc++ and libc++), virtual base classes
	cc=$src/cpp/bases.cpp
	if [ -e "$cc" ]; then
		for o in O0 O2; do
			build "$out/cpp/bases-$o" "$cc" $CXX -g -$o -Wall -o "$out/cpp/bases-$o" "$cc"
		done
		if need "${CLANGXX:-clang++}"; then
			for o in O0 O2; do
				build "$out/cpp/bases-libcxx-$o" "$cc" "${CLANGXX:-clang++}" -g -$o \
					-Wall -stdlib=libc++ -o "$out/cpp/bases-libcxx-$o" "$cc"
			done
		fi
	fi
	# whole.cpp: a class with a base, std::string and std::vector members shown whole
	if [ -e "$src/cpp/whole.cpp" ]; then
		for o in O0 O2; do
			build "$out/cpp/whole-$o" "$src/cpp/whole.cpp" $CXX -g -$o -Wall \
				-o "$out/cpp/whole-$o" "$src/cpp/whole.cpp"
		done
	fi
	# clones.cpp: g++ -O2 .isra clones of methods (CAF's enqueue shape)
	# sorter.cpp: std::sort on a std::thread, a virtual call (tests/e2e/stack-cfi.sh)
	build "$out/cpp/sorter-O2" "$src/cpp/sorter.cpp" $CXX -g -O2 -Wall -pthread \
		-o "$out/cpp/sorter-O2" "$src/cpp/sorter.cpp"
	if [ -e "$src/cpp/clones.cpp" ]; then
		build "$out/cpp/clones-O2" "$src/cpp/clones.cpp" $CXX -g -O2 -Wall \
			-o "$out/cpp/clones-O2" "$src/cpp/clones.cpp"
	fi
	# zoo.cpp: dynamic types (typeid, dynamic_cast<>): a hierarchy with an anonymous-namespace
	# class and multiple inheritance
	if [ -e "$src/cpp/zoo.cpp" ]; then
		for o in O0 O2; do
			build "$out/cpp/zoo-$o" "$src/cpp/zoo.cpp" $CXX -g -$o -Wall \
				-o "$out/cpp/zoo-$o" "$src/cpp/zoo.cpp"
		done
		# non-PIE: its vtables' addresses are known without a process (e2e/dynfilter.sh)
		build "$out/cpp/zoo-O0-nopie" "$src/cpp/zoo.cpp" $CXX -g -O0 -Wall -no-pie -fno-pie \
			-o "$out/cpp/zoo-O0-nopie" "$src/cpp/zoo.cpp"
	fi
	# sink/, mbox/: multi-file projects as projects are built, a shared library and a program
	# (no -femit-class-debug-always): a class's full DWARF is only in the unit holding its key
	# function, the probed units see declarations (tests/e2e/cases/projects.cases)
	# dyn/: type words that name no class (tests/e2e/cases/dynmodules.cases)
	for p in sink:elem.cc:sink.cc mbox:mailbox_element.cc:message.cc:scheduled_actor.cc \
		dyn:shape.cc; do
		name=${p%%:*}
		d=$src/cpp/$name
		[ -e "$d/main.cc" ] || continue
		libsrc=""
		for f in $(echo "${p#*:}" | tr : ' '); do
			libsrc="$libsrc $d/$f"
		done
		hdr=$(ls "$d"/*.h)
		for o in O0 O2; do
			lib=$out/cpp/lib$name-$o.so
			# shellcheck disable=SC2086
			build "$lib" "$libsrc $hdr" $CXX -g -$o -Wall -fPIC -shared -o "$lib" $libsrc
			build "$out/cpp/$name-$o" "$d/main.cc $hdr $lib" $CXX -g -$o -Wall \
				-o "$out/cpp/$name-$o" "$d/main.cc" -L"$out/cpp" -l:lib$name-$o.so \
				-Wl,-rpath,'$ORIGIN'
		done
	done
fi

# go_pair NAME "INPUTS" - go/NAME (optimized) and go/NAME-N (-N -l) from tests/targets/go/NAME
go_pair() {
	local d=$src/go/$1
	build "$out/go/$1" "$2" sh -c 'cd "$1" && exec "$2" build -o "$3" .' sh "$d" "$GO" \
		"$out/go/$1"
	build "$out/go/$1-N" "$2" \
		sh -c 'cd "$1" && exec "$2" build -gcflags="all=-N -l" -o "$3" .' sh "$d" "$GO" \
		"$out/go/$1-N"
}

# Go: default optimization (register ABI, DWARF present) and -N -l (no optimization).
if wants go/ && need "$GO"; then
	export GOCACHE="$out/go/.cache" GOPATH="$out/go/.path" GOFLAGS=-mod=mod GOPROXY=off \
		GO111MODULE=on GOTOOLCHAIN=local GOWORK=off CGO_ENABLED=0
	gosrc=$src/go/orders
	go_pair orders "$gosrc/go.mod $gosrc/main.go $gosrc/store/ledger.go"
	# churn: results of every shape and a hot function under goroutine churn (%return tests)
	gosrc=$src/go/churn
	if [ -e "$gosrc/go.mod" ]; then
		build "$out/go/churn" "$gosrc/go.mod $gosrc/main.go" \
			sh -c 'cd "$1" && exec "$2" build -o "$3" .' sh "$gosrc" "$GO" "$out/go/churn"
	fi
	# calls: durations per goroutine (goroutines moving between threads, stacks that grow)
	gosrc=$src/go/calls
	if [ -e "$gosrc/go.mod" ]; then
		build "$out/go/calls" "$gosrc/go.mod $gosrc/main.go" \
			sh -c 'cd "$1" && exec "$2" build -o "$3" .' sh "$gosrc" "$GO" "$out/go/calls"
	fi
	# samepc: a function and another's inlined copy at one probe address (samepc.sh)
	gosrc=$src/go/samepc
	if [ -e "$gosrc/go.mod" ]; then
		build "$out/go/samepc" "$gosrc/go.mod $gosrc/main.go" \
			sh -c 'cd "$1" && exec "$2" build -o "$3" .' sh "$gosrc" "$GO" "$out/go/samepc"
	fi
	# errs: errors and interfaces of several dynamic types (typeid, EXPR.(T), $goid)
	gosrc=$src/go/errs
	[ -e "$gosrc/go.mod" ] && go_pair errs "$gosrc/go.mod $gosrc/main.go"
	# whole: structs, slices, arrays and func values shown whole (as delve prints them)
	gosrc=$src/go/whole
	[ -e "$gosrc/go.mod" ] && go_pair whole "$gosrc/go.mod $gosrc/main.go"
	# shapes: maps, embedded pointers, locals moved to the heap, optimized-out bounds and
	# broken location pieces (tests/e2e/cases/goshapes.cases), optimized and -N -l
	gosrc=$src/go/shapes
	[ -e "$gosrc/go.mod" ] && go_pair shapes "$gosrc/go.mod $gosrc/main.go"
	# dots: a package path whose last element has a dot (yaml.v3): Go escapes it as %2e
	gosrc=$src/go/dots
	if [ -e "$gosrc/go.mod" ]; then
		build "$out/go/dots" "$gosrc/go.mod $gosrc/main.go $gosrc/yaml.v3/parse.go" \
			sh -c 'cd "$1" && exec "$2" build -o "$3" .' sh "$gosrc" "$GO" "$out/go/dots"
	fi
	# nums: complex numbers, Inf/NaN, a pointer into unmapped memory, float64 in xmm (a gauge)
	gosrc=$src/go/nums
	if [ -e "$gosrc/go.mod" ]; then
		build "$out/go/nums" "$gosrc/go.mod $gosrc/main.go" \
			sh -c 'cd "$1" && exec "$2" build -o "$3" .' sh "$gosrc" "$GO" "$out/go/nums"
		build "$out/go/nums-N" "$gosrc/go.mod $gosrc/main.go" \
			sh -c 'cd "$1" && exec "$2" build -gcflags="all=-N -l" -o "$3" .' sh "$gosrc" \
			"$GO" "$out/go/nums-N"
	fi
	# dnsfwd: the DNS forwarder of the README's examples (a miekg/dns look-alike in dns/)
	gosrc=$src/go/dnsfwd
	if [ -e "$gosrc/go.mod" ]; then
		build "$out/go/dnsfwd" "$gosrc/go.mod $gosrc/main.go $gosrc/dns/msg.go" \
			sh -c 'cd "$1" && exec "$2" build -o "$3" .' sh "$gosrc" "$GO" "$out/go/dnsfwd"
		# the man page's -D example is x86-64's: where the targets are another machine's,
		# an x86-64 build too (tests/e2e/contract.sh; translating it needs no x86-64 CPU)
		[ "$("$GO" env GOARCH)" = amd64 ] ||
			build "$out/go/dnsfwd-amd64" "$gosrc/go.mod $gosrc/main.go $gosrc/dns/msg.go" \
				sh -c 'cd "$1" && exec env GOARCH=amd64 "$2" build -o "$3" .' sh "$gosrc" \
				"$GO" "$out/go/dnsfwd-amd64"
	fi
fi

# Rust: opt-level 0 and 1, crate name "orders" (functions are orders::shop::*).
if wants rust/ && need "$RUSTC"; then
	rs=$src/rust/orders.rs
	for o in 0 1; do
		build "$out/rust/orders-O$o" "$rs" $RUSTC -g -C opt-level=$o --crate-name orders \
			-o "$out/rust/orders-O$o" "$rs"
	done
	# nums.rs: i128/u128, Inf/NaN, f64 in xmm (crate "nums": nums::num::*)
	rs=$src/rust/nums.rs
	if [ -e "$rs" ]; then
		for o in 0 1; do
			build "$out/rust/nums-O$o" "$rs" $RUSTC -g -C opt-level=$o --crate-name nums \
				-o "$out/rust/nums-O$o" "$rs"
		done
	fi
	# sorter.rs: sort_by with a closure, opt-level 2 (crate "sorter"; tests/e2e/stack-cfi.sh)
	build "$out/rust/sorter-O2" "$src/rust/sorter.rs" $RUSTC -g -C opt-level=2 \
		--crate-name sorter -o "$out/rust/sorter-O2" "$src/rust/sorter.rs"
	# types.rs: Box, Rc, Arc and enums with data (crate "types": types::zoo::*)
	rs=$src/rust/types.rs
	if [ -e "$rs" ]; then
		for o in 0 1; do
			build "$out/rust/types-O$o" "$rs" $RUSTC -g -C opt-level=$o --crate-name types \
				-o "$out/rust/types-O$o" "$rs"
		done
	fi
fi

exit $fail
