#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# truncated.sh - a binary truncated by another process while upfront has it mapped (libelf
# and libdw read it through mmap): one error line naming it, exit 2, nothing installed, never
# a SIGBUS. Made deterministic by shim-race.c (LD_PRELOAD): it truncates the copy right
# after upfront opened it, before any section is read.
. "$(dirname "$0")/lib.sh"
upft_need_root

T=$UPFT_TARGETS
[ -x "$T/c/orders-O0" ] || t_bail "test targets not built (tests/targets/build.sh)"
shim=$UPFT_TMP/shim-race.so
gcc -shared -fPIC -O2 -o "$shim" "$UPFT_SRCDIR/tests/e2e/shim-race.c" -ldl ||
	t_bail "cannot build shim-race.c"
# an ASan build wants its runtime first in the library list: the shim comes before it
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0

# truncated TARGET SIZE DESC ARGS... - upfront ARGS on a fresh copy of TARGET ($B), truncated
# to SIZE bytes once open
truncated() {
	local target=$1 size=$2 desc=$3
	shift 3
	cp "$T/$target" "$B"
	UPFT_SHIM_TRUNCATE=$B UPFT_SHIM_SIZE=$size LD_PRELOAD=$shim upft_run "$@"
	t_is "$UPFT_RC" 2 "$desc: exit 2 (not a SIGBUS)"
	t_is "$UPFT_ERR" "upfront: $B was truncated while upfront read it (SIGBUS): $again" \
		"$desc: one line naming the file"
	t_is "$(stat -c %s "$B")" "$size" "$desc: the shim truncated it"
	t_unlike "$(cat "$UPFT_TRACEFS/uprobe_events")" "$B" "$desc: nothing installed"
}

B=$UPFT_TMP/victim
again='run again once it is written'
truncated c/orders-O0 4096 "-D, C" -x "$B" -D 'process_order o->id'
truncated c/orders-O0 0 "-D, C, truncated to 0" -x "$B" -D 'process_order o->id'
truncated go/orders 65536 "-D, Go" -x "$B" -D 'main.(*Store).Add o.Customer.Name'
truncated go/orders 65536 "-F, Go" -x "$B" -F 'main.*'
truncated c/orders-O0 4096 "-V, C" -x "$B" -V process_order
truncated c/orders-O0 4096 "trace mode" -x "$B" --json --max-events 1 'process_order o->id' \
	-- "$T/c/orders-O0"
truncated c/orders-O0 4096 "-a" -x "$B" -a 'process_order o->id'

# grown (or written in place) rather than truncated: no SIGBUS, but the offsets may be stale:
# refused before anything is printed or installed
grown() {
	local desc=$1 size
	shift
	cp "$T/c/orders-O0" "$B"
	size=$(($(stat -c %s "$B") + 8192))
	UPFT_SHIM_TRUNCATE=$B UPFT_SHIM_SIZE=$size LD_PRELOAD=$shim upft_run "$@"
	t_is "$UPFT_RC" 2 "$desc, the file grown meanwhile: exit 2"
	t_like "$UPFT_ERR" "^upfront: $B changed while upfront read it \\([0-9]+ bytes, now $size" \
		"$desc, grown: the error says so"
	t_is "$(printf '%s\n' "$UPFT_ERR" | wc -l)/$UPFT_OUT" "1/" \
		"$desc, grown: one line, nothing printed"
	t_unlike "$(cat "$UPFT_TRACEFS/uprobe_events")" "$B" "$desc, grown: nothing installed"
}
grown "-D" -x "$B" -D 'process_order o->id'
grown "trace mode" -x "$B" --json --max-events 1 'process_order o->id' -- "$T/c/orders-O0"
grown "-a" -x "$B" -a 'process_order o->id'

# the same runs without the shim: the hook changes nothing else
cp "$T/c/orders-O0" "$B"
LD_PRELOAD=$shim upft_run -x "$B" -D 'process_order o->id'
t_is "$UPFT_RC" 0 "with the shim but no truncation: -D exits 0"
t_like "$UPFT_OUT" "^p:probe_victim/process_order $B:0x" "... and prints the definition"

t_done
