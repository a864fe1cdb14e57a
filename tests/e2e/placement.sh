#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# placement.sh - where an entry probe goes (issue 10): at -O0 on the function's first
# instruction (push %rbp, which the kernel emulates) with the parameters from the ABI, not
# past the prologue (a single-stepped mov); -v names the instruction and its cost. Functions
# whose entry is not safe to read from the ABI keep the old place. Addresses from nm.
. "$(dirname "$0")/lib.sh"

T=$UPFT_TARGETS
bin=$T/c/entry-O0
[ -x "$bin" ] || t_bail "test targets not built (tests/targets/build.sh)"

sym() {
	nm "$bin" | sed -n "s/^0*\\([0-9a-f]*\\) T $1\$/\\1/p"
}

pa=$(sym pa_target)
[ -n "$pa" ] || t_bail "no pa_target in nm $bin"
upft_run -v -x "$bin" -D 'pa_target a b c s'
t_is "$UPFT_RC" 0 "-O0 pa_target a b c s: -D succeeds"
t_like "$UPFT_OUT" "^p:\\S+ \\S+/c/entry-O0:0x$pa a=" "... probes the entry (0x$pa, nm)"
t_like "$UPFT_ERR" "pa_target at 0x$pa: pushq? %rbp \\(emulated\\), parameters from the ABI" \
	"... -v: the instruction, emulated, parameters from the ABI"

# no arguments: the entry as well
upft_run -x "$bin" -D 'eight'
t_like "$UPFT_OUT" "^p:\\S+ \\S+/c/entry-O0:0x$(sym eight)\$" "-O0 eight, no arguments: the entry"

# variadic: past the prologue, single-stepped, and -v says so
s=$(sym sum)
upft_run -v -x "$bin" -D 'sum n'
t_unlike "$UPFT_OUT" ":0x$s " "-O0 sum n (variadic): not the entry"
t_like "$UPFT_ERR" "sum at 0x[0-9a-f]+: .* \\(single-stepped\\)$" "... -v: single-stepped"

# -O2: the entry, as before (the DWARF's registers)
bin=$T/c/entry-O2
upft_run -v -x "$bin" -D 'pa_target a b c s'
t_like "$UPFT_OUT" "^p:\\S+ \\S+/c/entry-O2:0x$(sym pa_target) a=%di:s64" "-O2 pa_target: the entry"
t_like "$UPFT_ERR" "pa_target at 0x$(sym pa_target): .* \\((emulated|single-stepped)\\)" \
	"... -v names the instruction"

# Go: main.find (no stack check) on the jne after cmp $1,%rax: emulated, id still in %rax
go=$T/go/orders
gf=$(nm "$go" | sed -n 's/^0*\([0-9a-f]*\) T main\.find$/\1/p')
upft_run -v -x "$go" -D 'main.find id'
t_like "$UPFT_OUT" "^p:\S+ \S+/go/orders:0x[0-9a-f]+ id=%ax:s64\$" "Go main.find id: from %ax"
t_like "$UPFT_ERR" "main.find at 0x$(printf '%x' $((0x$gf + 4))): jne .* \(emulated\)" \
	"... on the jne at +4, emulated (-v)"

t_done
