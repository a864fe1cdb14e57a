#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# reach.sh - code reached in less common ways (tests/targets/c/reach.c): a function that exists
# only inlined (listed by -F, marked; each inlined copy a probe point), an old symbol version
# by NAME@VERSION (libc's pthread_kill@GLIBC_2.2.5), ':sym' on an SDT argument that points
# into libc, named from the process's mappings
. "$(dirname "$0")/lib.sh"
upft_need_root

for o in O0 O2; do
	[ -x "$UPFT_TARGETS/c/reach-$o" ] || t_bail "$UPFT_TARGETS/c/reach-$o not built"
done
libc=$(ldd "$UPFT_TARGETS/c/reach-O2" | awk '$1 == "libc.so.6" { print $3 }')
[ -e "$libc" ] || t_bail "no libc.so.6 in ldd's output"
bid=$(readelf -n "$libc" | awk '/Build ID/ { print $3 }')
[ -e "/usr/lib/debug/.build-id/${bid:0:2}/${bid:2}.debug" ] ||
	t_bail "no debuginfo for $libc (apt-get install libc6-dbg)"

# --- a function that exists only inlined ---
bin=$UPFT_TARGETS/c/reach-O2
upft_run -x "$bin" -F
t_is "$UPFT_RC" 0 "-F exits 0"
t_like "$UPFT_OUT" $'^scale_qty\t\\(inlined\\)$' "-F lists the inlined-only scale_qty, marked (inlined)"
t_like "$UPFT_OUT" '^small_order$' "... and functions with code unmarked"
t_unlike "$UPFT_OUT" $'^(small_order|large_order|main)\t' "... (no out-of-line function is marked)"
t_is "$(printf '%s\n' "$UPFT_OUT" | grep -v '^sdt_' | cut -f1 | sort -c 2>&1)" "" "... in one sorted list (then SDT probes)"
upft_run -x "$bin" -F 'scale*'
t_is "$UPFT_OUT" $'scale_qty\t(inlined)' "-F GLOB matches inlined-only functions too"
upft_run -x "$UPFT_TARGETS/c/reach-O0" -F 'scale*'
t_is "$UPFT_OUT" "scale_qty" "-O0: the same function has code of its own, unmarked"

upft_run -x "$bin" -D 'scale_qty q f'
t_is "$UPFT_RC" 0 "-D of an inlined-only function exits 0"
t_is "$(printf '%s\n' "$UPFT_OUT" | grep -c '^p:')" 2 "... one probe point per inlined copy"
t_like "$UPFT_OUT" ' f=\\3:s32$' "... the copy in small_order (f is the constant 3)"
t_like "$UPFT_OUT" ' f=\\7:s32$' "... the copy in large_order (f is 7)"

upft_run --stdio -x "$bin" 'scale_qty q f' -- "$bin" 2
t_is "$UPFT_RC" 0 "tracing the inlined-only function exits 0"
for want in 'q=5 f=3' 'q=6 f=7' 'q=6 f=3' 'q=7 f=7'; do
	t_like "$UPFT_OUT" " scale_qty $want\$" "... an event with $want"
done
t_like "$UPFT_ERR" 'upfront: 4 events, 0 lost' "... 4 events, one per copy per round"

upft_run -x "$libc" -F '*'
t_like "$UPFT_OUT" $'^[A-Za-z_][A-Za-z0-9_]*\t\\(inlined\\)$' "libc: -F lists inlined-only functions (libc6-dbg)"

# --- ':sym' on SDT arguments: a pointer into the binary and one into libc ---
for o in O0 O2; do
	bin=$UPFT_TARGETS/c/reach-$o
	upft_run --stdio -x "$bin" 'sdt_reach:callback own=$arg1:sym lib=$arg2:sym k=$arg3' -- "$bin" 2
	t_is "$UPFT_RC" 0 "reach-$o: tracing sdt_reach:callback exits 0"
	t_like "$UPFT_OUT" ' callback own=by_qty\+0x0 lib=qsort\+0x0 k=0$' \
		"reach-$o: :sym names a function of the binary and one of libc (the process's mappings)"
	t_like "$UPFT_OUT" ' callback own=by_qty\+0x0 lib=qsort\+0x0 k=1$' "reach-$o: ... round 1"
	upft_run --json -x "$bin" 'sdt_reach:callback lib=$arg2:sym' -- "$bin" 1
	t_is "$(upft_json_arg "$UPFT_OUT" 1 lib)" '"qsort+0x0"' "reach-$o: ... in JSON too"
done

t_done
