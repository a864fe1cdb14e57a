#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# stack-inline.sh - --stack shows the functions inlined at a frame, as perf script --inline
# does: c/inlined (tests/targets/c/inlined.c, -O2 with frame pointers) calls leaf() from
# inner(), inlined into outer(), inlined into main(). The return address in main lies in
# both inlined scopes (looked up at the address - 1, the call): leaf+0x0, inner (inlined),
# outer (inlined), main+0xOFF, libc. The same with the DWARF in a separate file found by
# .gnu_debuglink (as libc6-dbg's); a copy without DWARF keeps its symbols only.
. "$(dirname "$0")/lib.sh"
upft_need_root

BIN=$UPFT_TARGETS/c/inlined-O2
[ -x "$BIN" ] || t_bail "targets not built (tests/targets/build.sh $UPFT_TARGETS)"
# main+OFF: the instruction after the call to leaf, in main (x86-64's call, arm64's bl)
ret=$(objdump -d --no-show-raw-insn "$BIN" |
	awk '/(call|bl)[ \t].*<leaf>/ { getline; sub(":", "", $1); print $1; exit }')
main=$(nm "$BIN" | awk '$3 == "main" { print $1 }')
[ -n "$ret" ] && [ -n "$main" ] || t_bail "no call to leaf in main ($BIN)"
off=$(printf '0x%x' $((0x$ret - 0x$main)))

# stack_of JSON - the first event's stack, frames joined with " ", then its stack_inlined
stack_of() {
	printf '%s\n' "$1" | python3 -c '
import json, sys
evs = [json.loads(l) for l in sys.stdin if l.startswith("{\"time\"")]
e = evs[0] if evs else {}
print(" ".join(e.get("stack", ["(no stack)"])), e.get("stack_inlined"))
'
}

want="^leaf\\+0x0 inner outer main\\+$off __libc_start_call_main\\+0x[0-9a-f]+( [^ ]+)* \\[1, 2\\]\$"

# 1. JSON: the inlined functions innermost first, their indices in stack_inlined
upft_run --json --stack -x "$BIN" 'leaf x' -- "$BIN" 2
t_is "$UPFT_RC" 0 "--stack exits 0"
t_is "$(upft_json_count "$UPFT_OUT")" 2 "two events"
st=$(stack_of "$UPFT_OUT")
t_like "$st" "$want" "JSON: leaf, inner and outer inlined into main+$off, libc"

# 2. text: each inlined function by name with (inlined), at the frame's address, no file
upft_run --stdio --stack -x "$BIN" 'leaf x' -- "$BIN" 1
ev=$(printf '%s\n' "$UPFT_OUT" | sed -n '/ leaf x=1$/,/^[0-9]/p' | grep '^	' | head -4 |
	sed 's/^	 *[0-9a-f]* //')
t_is "$ev" "leaf+0x0 ($BIN)
inner (inlined)
outer (inlined)
main+$off ($BIN)" "text: leaf, inner (inlined), outer (inlined), main"
a=$(printf '%s\n' "$UPFT_OUT" | grep -E '^	 *[0-9a-f]+ (inner|outer|main)' | awk '{ print $1 }' | sort -u |
	wc -l)
t_is "$a" 1 "text: the inlined frames have main's return address"

# 3. DWARF in a separate file (.gnu_debuglink, as libc6-dbg's): the same frames
SEP=$UPFT_TMP/inlined-sep
objcopy --only-keep-debug "$BIN" "$SEP.debug" && objcopy --strip-debug \
	--add-gnu-debuglink="$SEP.debug" "$BIN" "$SEP" || t_bail "objcopy"
upft_run --json --stack -x "$SEP" 'leaf x' -- "$SEP" 1
st=$(stack_of "$UPFT_OUT")
t_like "$st" "$want" "separate debuginfo: leaf, inner and outer inlined into main"

# 4. no DWARF at all: the frames as the symbols name them, nothing inlined
NODW=$UPFT_TMP/inlined-nodwarf
strip --strip-debug -o "$NODW" "$BIN" || t_bail "strip"
upft_run --json --stack -x "$NODW" 'leaf' -- "$NODW" 1
st=$(stack_of "$UPFT_OUT")
t_like "$st" "^leaf\\+0x0 main\\+$off __libc_start_call_main\\+0x[0-9a-f]+( [^ ]+)* None\$" \
	"without DWARF: leaf, main, libc; no stack_inlined"
t_done
