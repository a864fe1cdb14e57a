#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# metrics-cost.sh - the cost --metrics adds per event on upfront's decoding thread, measured
# without the kernel (bench/metrics-cost.c against the built libupfront.a); stream-rate.sh
# -m "kernel upfront upfront_metrics" measures the whole path, where on a shared machine the
# difference is within its noise.
#
# usage: bench/metrics-cost.sh [-b BUILDDIR] [EVENTS]
set -eu

builddir=$(cd "$(dirname "$0")/.." && pwd)
if [ "${1:-}" = -b ]; then
	builddir=$(cd "$2" && pwd)
	shift 2
fi
src=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d /tmp/upfront-bench.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
[ -e "$builddir/libupfront.a" ] || { echo "no $builddir/libupfront.a (build first)" >&2; exit 1; }
# shellcheck disable=SC2046
gcc -O2 -I"$src/src" -o "$tmp/metrics-cost" "$src/bench/metrics-cost.c" \
	"$builddir/libupfront.a" $(pkg-config --libs libtracefs libtraceevent libdw libelf \
	ncursesw capstone libmicrohttpd libdebuginfod 2>/dev/null) -liberty -lpthread -lm
"$tmp/metrics-cost" "${1:-20000000}"
