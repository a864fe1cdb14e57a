#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# addr.sh - 0xADDR and FUNC+OFFSET places must start an instruction: a uprobe inside one
# corrupts the traced program. Addresses come from the target's symbol table (nm).
. "$(dirname "$0")/lib.sh"

T=$UPFT_TARGETS
[ -x "$T/c/orders-O2" ] || t_bail "test targets not built (tests/targets/build.sh)"

# the instruction process_order+3 is inside (its offset and mnemonic, objdump -d), the offset of
# the next one, and the first instruction of the Go methods (their stack check)
case $UPFT_ARCH in
arm64)	# fixed 4-byte instructions: stp x29, x30, [sp, #-N]! at +0 in both builds
	at_off=0 at_insn=stp next=4 go_insn="ldr x16" ;;
*)	# a 1-byte push at +0, a 3- or 4-byte instruction at +1 in both builds
	at_off=1 at_insn=mov next=1 go_insn=cmp ;;	# cmpq 0x10(%r14), %rsp
esac

for o in O0 O2; do
	bin=$T/c/orders-$o
	entry=$(nm "$bin" | sed -n 's/^\([0-9a-f]*\) T process_order$/\1/p')
	[ -n "$entry" ] || t_bail "no process_order in nm $bin"
	inside=$(printf '0x%x' $((0x$entry + 3)))
	at=$(printf '0x%x' $((0x$entry + at_off)))
	start=$(printf '0x%x' $((0x$entry + next)))

	upft_run -x "$bin" -D "$inside"
	t_is "$UPFT_RC" 2 "$o: 0xADDR inside an instruction ($inside, process_order+3) exits 2"
	t_like "$UPFT_ERR" "^upfront: $inside \\(process_order\\+3\\) is inside the instruction at $at \\(process_order\\+$at_off: $at_insn" \
		"$o: ... naming the instruction and the function"
	t_is "$(printf '%s\n' "$UPFT_ERR" | wc -l)" 1 "$o: ... on one line"
	t_is "$UPFT_OUT" "" "$o: ... and prints no definition"

	upft_run -x "$bin" -D "$start"
	t_is "$UPFT_RC" 0 "$o: 0xADDR at an instruction ($start) is accepted"
	t_like "$UPFT_OUT" "^p:\\S+ \\S+/c/orders-$o:0x[0-9a-f]+\$" "$o: ... with a definition"

	# in trace mode nothing is installed, and the target does not run
	upft_run --max-events 1 "$inside" -- "$bin"
	t_is "$UPFT_RC" 2 "$o: trace mode refuses $inside too"
	# (this binary's path: other runs trace their own copies at the same time)
	t_unlike "$(cat "$UPFT_TRACEFS/uprobe_events")" " $bin:" "$o: ... and installs nothing"
done

# The Go target's methods start with their stack check: x86-64's cmp 0x10(%r14),%rsp (4 bytes),
# then jbe; arm64's ldr x16, [x28, #16], cmp sp, x16, b.ls
upft_run -x "$T/go/orders" -D 'main.(*Store).Add+4'
t_is "$UPFT_RC" 0 "Go: main.(*Store).Add+4 (the stack check's second instruction) is accepted"
upft_run -x "$T/go/orders" -D 'main.(*Store).Add+1'
t_like "$UPFT_ERR" "inside the instruction at \\+0 \\($go_insn" "Go: +1 is inside the stack check's first"

t_done
