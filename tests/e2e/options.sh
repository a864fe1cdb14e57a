#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# options.sh - every bad option value is one line on stderr naming the option and the value
# (escaped), exit 2, nothing in tracefs: numbers that saturate, carry junk or a sign, values
# with newlines, -g and -e names, -L ranges that overflow, raw fetchargs the kernel would
# misread
. "$(dirname "$0")/lib.sh"

T=$UPFT_TARGETS
C=$T/c/orders-O2
G=$T/go/orders
[ -x "$C" ] || t_bail "test targets not built (tests/targets/build.sh)"

# bad ARGS... - upfront ARGS exits 2 with exactly one line on stderr, nothing on stdout
bad() {
	local desc=$1
	shift
	upft_run "$@"
	if [ "$UPFT_RC" = 2 ] && [ "$(printf '%s\n' "$UPFT_ERR" | wc -l)" = 1 ] &&
		[ -n "$UPFT_ERR" ] && [ -z "$UPFT_OUT" ]; then
		t_pass "$desc"
	else
		t_fail "$desc" "rc $UPFT_RC" "stderr: $UPFT_ERR" "stdout: $UPFT_OUT"
	fi
}

# option values echoed escaped, one line
bad "--string-size with a newline: one line" -x "$C" --string-size $'1\n2' process_order
t_is "$UPFT_ERR" "upfront: --string-size wants a number of bytes from 1 to 1024, not '1\\n2' (see upfront --help)" \
	"--string-size: the value escaped, exactly"
bad "-p abc: one error" -x "$C" -p abc process_order
t_is "$UPFT_ERR" "upfront: -p wants a process id (1 to 2147483647), not 'abc' (see upfront --help)" "-p abc: exactly"
bad "-p 99999999999: a message" -x "$C" -p 99999999999 process_order
t_like "$UPFT_ERR" "^upfront: -p wants a process id .*not '99999999999'" "-p 99999999999: names the value"
bad "-p -1" -x "$C" -p -1 process_order
bad "-p 0" -x "$C" -p 0 process_order
bad "-p ' 5' (a blank)" -x "$C" -p ' 5' process_order
bad "-p 5x (trailing junk)" -x "$C" -p 5x process_order
bad "-p +5 (a sign)" -x "$C" -p +5 process_order
bad "-p 0x10 (a base prefix)" -x "$C" -p 0x10 process_order
bad "-p 2147483648 (above INT_MAX)" -x "$C" -p 2147483648 process_order
bad "--max-events 0" -x "$C" --max-events 0 process_order
bad "--max-events -1" -x "$C" --max-events -1 process_order
bad "--max-events 99999999999999999999 (saturates)" -x "$C" --max-events 99999999999999999999 process_order
bad "--string-size 0" -x "$C" --string-size 0 process_order
bad "--string-size 18446744073709551617 (wraps)" -x "$C" --string-size 18446744073709551617 process_order
bad "--ring 99" -x "$C" --ring 99 process_order
bad "--ring 1e9" -x "$C" --ring 1e9 process_order
for v in inf nan -1 0 1e10 '' ' 1' 1s; do
	bad "--duration '$v'" -x "$C" --duration "$v" process_order
done
t_like "$UPFT_ERR" "^upfront: --duration wants a number of seconds above 0 and at most 1e9, not '1s'" "--duration: names the value"
bad "-e with a newline" -x "$C" -e $'sched:x\ny' process_order
t_is "$UPFT_ERR" "upfront: -e wants SYSTEM:EVENT (names of letters, digits, '_', '-' and '.'), not 'sched:x\\ny' (see upfront --help)" "-e: escaped, exactly"
bad "-e ../x:y (a path)" -x "$C" -e ../x:y process_order
bad "-e sched: (no event)" -x "$C" -e sched: process_order

# -g: refused with the reason, never rewritten
bad "-g my-grp" -x "$C" -g my-grp -D process_order
t_like "$UPFT_ERR" "letters, digits and '_'.*not 'my-grp'" "-g my-grp: the reason"
bad "-g 1abc" -x "$C" -g 1abc -D process_order
bad "-g of 64 characters" -x "$C" -g "$(printf 'g%.0s' $(seq 64))" -D process_order
t_like "$UPFT_ERR" "at most 63 characters" "-g too long: the kernel's limit"
bad "-g upfront_123 (a session's name)" -x "$C" -g upfront_123 -D process_order
bad "-g in trace mode" -x "$C" -g mygrp process_order
upft_run -x "$C" -g my_grp -D process_order
t_like "$UPFT_OUT" '^p:my_grp/process_order ' "-g my_grp is taken as is"

# -L: ranges that saturate strtol or overflow start + count
for r in 'orders.c:1-99999999999999999999' 'orders.c:9223372036854775807+5' 'orders.c:5+2147483647' \
	'process_order:9223372036854775807' 'orders.c:2147483648'; do
	bad "-L $r" -x "$C" -L "$r"
done
t_is "$UPFT_ERR" "upfront: line range '2147483648' is out of range (lines are numbered up to 2147483647)" "-L: exactly"
bad "-L Go FUNC:huge" -x "$G" -L 'main.process:9223372036854775807'
t_unlike "$UPFT_ERR" ':-[0-9]' "-L: never a negative line"
upft_run -x "$C" -L 'orders.c:10+2'
t_is "$(printf '%s\n' "$UPFT_OUT" | wc -l)" 4 "-L N+C still works"

# raw fetchargs: the kernel's grammar only ('#' would make it drop the rest silently), with
# the registers of this machine's kernel (one it lacks is refused: contract.sh, errors.cases)
case $UPFT_ARCH in arm64) R0=x0 R1=x1 ;; *) R0=di R1=si ;; esac
bad "raw fetcharg with '#'" -x "$C" -D "process_order +0(%$R0)# y=%$R1"
t_is "$UPFT_ERR" "upfront: '#' starts a comment in uprobe_events: the kernel would drop the rest of the probe at '#' (column 22 of 'process_order +0(%$R0)# y=%$R1')" \
	"raw '#': exactly"
bad "raw fetcharg with DEL" -x "$C" -D "process_order +0(%$R0)"$'\x7f'
bad "raw fetcharg with non-ASCII" -x "$C" -D 'process_order +0(%dé)'
bad "raw fetcharg with a control byte" -x "$C" -D "process_order +0(%$R0)"$'\x01'
bad "raw fetcharg \\\"a#b\"" -x "$C" -D 'process_order \"a#b"'
bad "raw fetcharg @symbol" -x "$C" -D 'process_order @main'
bad "raw fetcharg unbalanced" -x "$C" -D "process_order +8(%$R0"
bad "raw fetcharg in trace mode" -x "$C" --stdio "process_order +0(%$R0)#" -- "$T/c/orders-O2"
upft_run -x "$C" -D "process_order a=+0(%$R0):u32 b=-8(+0(%$R1)) d=\\-12 e=+8(\$stack)"
t_is "$UPFT_RC" 0 "valid raw fetchargs pass"
# without \IMM upfront keeps the constant: the kernel gets no field for it
d=
[ "$(upft_kernel imm)" = yes ] && d=' d=\\-12:u64'
t_like "$UPFT_OUT" " a=\\+0\\(%$R0\\):u32 b=-8\\(\\+0\\(%$R1\\)\\):u64$d"' e=\+8\(\$stack\):u64$' \
	"valid raw fetchargs go to the kernel as written"
upft_run -x "$C" -D 'process_order c=@+0x10'
foffs=$(upft_kernel file_offset)
if [ "$foffs" = yes ]; then
	t_like "$UPFT_OUT" ' c=@\+0x10:u64$' "raw @+FILE_OFFSET goes to the kernel as written"
elif [ "$foffs" = half ]; then
	t_like "$UPFT_OUT" ' c=@\+0x8:u64$' \
		"raw @+FILE_OFFSET: half of it, where the kernel reads it at twice the offset"
else
	t_like "$UPFT_ERR" "^upfront: cannot read 'c': it is read at a file offset" \
		"raw @+FILE_OFFSET: refused where the kernel reads it elsewhere (row file_offset)"
fi

P='process_order id=o->id name=o->customer->name'
# --filter: the kernel's filter file takes one line of text; control bytes are refused before
# anything is installed (a newline is whitespace to the kernel's parser today, a line break to
# anything that reads the filter back)
bad "--filter with a newline" -x "$C" --filter $'id == 101\n|| id == 102' "$P" -- "$C"
t_is "$UPFT_ERR" "upfront: --filter wants one line of text (no control characters, UTF-8), not 'id == 101\\n|| id == 102' (see upfront --help)" \
	"--filter: the value escaped, exactly"
bad "--filter with a trailing newline" -x "$C" --filter $'id == 101\n' "$P" -- "$C"
bad "--filter with CR" -x "$C" --filter $'id == 101\r' "$P" -- "$C"
bad "--filter with ESC" -x "$C" --filter $'id == 101 \e[31m' "$P" -- "$C"
bad "--filter with a tab" -x "$C" --filter $'id ==\t101' "$P" -- "$C"
bad "--filter with DEL" -x "$C" --filter $'id == 101\x7f' "$P" -- "$C"
bad "--filter with a byte that is not UTF-8" -x "$C" --filter $'name == "\xff"' "$P" -- "$C"
bad "--filter with a C1 control (U+0085)" -x "$C" --filter $'id == 101\xc2\x85' "$P" -- "$C"
bad "--filter longer than the kernel takes (4095 bytes)" -x "$C" \
	--filter "id == 101$(printf ' || id == 1%.0s' $(seq 400))" "$P" -- "$C"
t_like "$UPFT_ERR" "^upfront: --filter is [0-9]+ bytes long: the kernel takes at most 4095" \
	"--filter too long: says the limit"
upft_run --json --max-events 1 -x "$C" --filter 'id == 102 && name ~ "b*"' \
	'process_order id=o->id name=o->customer->name' -- "$C"
t_is "$UPFT_RC/$(upft_json_arg "$UPFT_OUT" 1 id)" 0/102 "a one-line filter still passes"
upft_run --json --max-events 1 -x "$C" --filter 'id == 102 || name == "café"' \
	'process_order id=o->id name=o->customer->name' -- "$C"
t_is "$UPFT_RC/$(upft_json_arg "$UPFT_OUT" 1 id)" 0/102 "... UTF-8 text in it too"

t_done
