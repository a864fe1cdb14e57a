#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# compare-perf.sh - the same C expressions through `perf probe -D` and `upfront -D`: both
# definition lines, and the values each traces when written to uprobe_events, side by side
#
# usage: sudo scripts/compare-perf.sh [--builddir DIR] [BINARY]
# BINARY defaults to the C -O0 test target (BUILDDIR/tests/build/c/orders-O0). Each line is
# added under a private group (upft_cmp<pid>), enabled in a private instance, the target is
# run once, and the first events' values are shown; everything is removed on exit.
# perf needs ":string" to show a char * as text; upfront does not (the perf form is given
# after a "|" where it differs).
set -u

srcdir=$(cd "$(dirname "$0")/.." && pwd)
builddir=
if [ "${1:-}" = --builddir ]; then
	builddir=$2
	shift 2
elif [ -x ./upfront ]; then
	builddir=$PWD
else
	builddir=$srcdir
fi
builddir=$(cd "$builddir" && pwd)
upfront=${UPFRONT:-$builddir/upfront}
"$srcdir/tests/targets/build.sh" "$builddir/tests/build" >/dev/null || exit 1
bin=$(realpath "${1:-$builddir/tests/build/c/orders-O0}")

T=${UPFT_TRACEFS:-/sys/kernel/tracing}
G=upft_cmp$$
inst=$T/instances/$G
[ "$(id -u)" -eq 0 ] || { echo "compare-perf.sh: run as root (writes $T)" >&2; exit 1; }
command -v perf >/dev/null || { echo "compare-perf.sh: perf not found (apt-get install linux-perf)" >&2; exit 1; }

# upfront probe | perf probe (when perf needs another spelling)
exprs=(
	'process_order o->id'
	'process_order o->customer->name|process_order o->customer->name:string'
	'process_order o->customer->code|process_order o->customer->code:string'
	'process_order o->items[1].qty'
	'process_order o->items[2].sku|process_order o->items[2].sku:string'
	'process_order o->fl.mode'
	'process_order o->tier'
	'process_order o->weight'
	'process_order o->ext_id'
	'process_order g_counter'
	'check_customer c->age'
	'set_limits a b c d e f t'
)

cleanup() {
	[ -d "$inst" ] && { echo 0 >"$inst/events/$G/enable" 2>/dev/null; rmdir "$inst"; }
	grep -E "^[pr]:$G/" "$T/uprobe_events" 2>/dev/null | while read -r l _; do
		echo "-:${l#*:}" >>"$T/uprobe_events"
	done
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# define NAME -D-OUTPUT - add the first p: line of the output as $G/NAME; prints the error
define() {
	local line head rest
	line=$(printf '%s\n' "$2" | grep -m1 -E '^[pr]:') || { echo "(no definition)"; return 1; }
	head=${line%% *}
	rest=${line#* }
	if ! echo "${head%%:*}:$G/$1 $rest" >>"$T/uprobe_events" 2>/dev/null; then
		echo "(kernel: $(tail -3 "$T/error_log" | sed -n 's/.*error: //p' | tail -1))"
		return 1
	fi
}

# values NAME - the argument part of NAME's first two events in the trace, "|" between them
values() {
	grep -a " $1: " "$inst/trace" | head -2 | sed 's/.*) //' | tr '\0' '.' |
		cat -v | paste -sd '|' | sed 's/|/  |  /'
}

i=0
for e in "${exprs[@]}"; do
	i=$((i + 1))
	up=${e%%|*}
	pp=${e#*|}
	pout=$(perf probe -x "$bin" -D "$pp" 2>&1)
	uout=$("$upfront" -x "$bin" -D "$up" 2>&1)
	echo "== $up"
	echo "   perf    -D  $(printf '%s\n' "$pout" | grep -m1 -E '^[pr]:' ||
		printf '%s\n' "$pout" | grep -v -e '^$' -e 'Skipping prologue' \
			-e 'to force probing' | head -1)"
	echo "   upfront -D  $(printf '%s\n' "$uout" | grep -m1 -E '^[pr]:' ||
		printf '%s\n' "$uout" | head -1)"
	perr=$(define "p$i" "$pout") && pdef=1 || pdef=0
	uerr=$(define "u$i" "$uout") && udef=1 || udef=0
	mkdir "$inst"
	[ $pdef = 1 ] && echo 1 >"$inst/events/$G/p$i/enable"
	[ $udef = 1 ] && echo 1 >"$inst/events/$G/u$i/enable"
	"$bin" >/dev/null
	[ -e "$inst/events/$G/enable" ] && echo 0 >"$inst/events/$G/enable"
	if [ $pdef = 1 ]; then pv=$(values "p$i"); else pv=$perr; fi
	if [ $udef = 1 ]; then uv=$(values "u$i"); else uv=$uerr; fi
	echo "   perf    traced   $pv"
	echo "   upfront traced   $uv"
	echo "   upfront shows    $("$upfront" --stdio --max-events 2 "$up" -- "$bin" 2>/dev/null |
		grep -E '^[0-9]+\.[0-9]+ ' | sed 's/^[^ ]* [^ ]* [^ ]* //' | paste -sd '|' |
		sed 's/|/  |  /')"
	rmdir "$inst"
	cleanup
done
