#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# placement.sh - where an entry probe goes (issue 10): at -O0 on the function's first
# instruction (push %rbp, which the kernel emulates) with the parameters from the ABI, not
# past the prologue (a single-stepped mov); -v names the instruction and its cost. Functions
# whose entry is not safe to read from the ABI keep the old place. Addresses from nm. arm64
# (objdump -d): its kernel simulates branches and adr/adrp only and single-steps the rest, so
# an -O0 prologue (sub sp or stp x29, x30, then str of each parameter) has nothing cheaper
# than the line past it, where the probe stays (the parameters from their sp slots); a
# b.cond after cmp is simulated as x86-64's jcc is emulated.
. "$(dirname "$0")/lib.sh"

T=$UPFT_TARGETS
bin=$T/c/entry-O0
# the first argument register of C and of Go's register ABI, Go's conditional branch
case $UPFT_ARCH in
arm64) r0=x0 g0=x0 jne=b.ne ;;
*) r0=di g0=ax jne=jne ;;
esac
[ -x "$bin" ] || t_bail "test targets not built (tests/targets/build.sh)"

sym() {
	nm "$bin" | sed -n "s/^0*\\([0-9a-f]*\\) T $1\$/\\1/p"
}

pa=$(sym pa_target)
[ -n "$pa" ] || t_bail "no pa_target in nm $bin"
upft_run -v -x "$bin" -D 'pa_target a b c s'
t_is "$UPFT_RC" 0 "-O0 pa_target a b c s: -D succeeds"
if [ "$UPFT_ARCH" = arm64 ]; then
	t_like "$UPFT_OUT" "^p:\\S+ \\S+/c/entry-O0:0x[0-9a-f]+ a=\\+[0-9]+\\(%sp\\):s64 " \
		"... past the prologue, from the sp slots it stores them in"
	t_unlike "$UPFT_OUT" ":0x$pa " "... not at the entry (0x$pa, nm: sub sp, single-stepped)"
	t_like "$UPFT_ERR" "pa_target at 0x[0-9a-f]+: .* \\(single-stepped\\)$" \
		"... -v: the instruction, single-stepped"
else
	t_like "$UPFT_OUT" "^p:\\S+ \\S+/c/entry-O0:0x$pa a=" "... probes the entry (0x$pa, nm)"
	t_like "$UPFT_ERR" "pa_target at 0x$pa: pushq? %rbp \\(emulated\\), parameters from the ABI" \
		"... -v: the instruction, emulated, parameters from the ABI"
fi

# no arguments: the entry as well (arm64: past the prologue as well)
upft_run -x "$bin" -D 'eight'
if [ "$UPFT_ARCH" = arm64 ]; then
	t_like "$UPFT_OUT" "^p:\\S+ \\S+/c/entry-O0:0x[0-9a-f]+\$" "-O0 eight, no arguments: a place"
	t_unlike "$UPFT_OUT" ":0x$(sym eight)\$" "... past the prologue"
else
	t_like "$UPFT_OUT" "^p:\\S+ \\S+/c/entry-O0:0x$(sym eight)\$" "-O0 eight, no arguments: the entry"
fi

# variadic: past the prologue, single-stepped, and -v says so
s=$(sym sum)
upft_run -v -x "$bin" -D 'sum n'
t_unlike "$UPFT_OUT" ":0x$s " "-O0 sum n (variadic): not the entry"
t_like "$UPFT_ERR" "sum at 0x[0-9a-f]+: .* \\(single-stepped\\)$" "... -v: single-stepped"

# -O2: the entry, as before (the DWARF's registers)
bin=$T/c/entry-O2
upft_run -v -x "$bin" -D 'pa_target a b c s'
t_like "$UPFT_OUT" "^p:\\S+ \\S+/c/entry-O2:0x$(sym pa_target) a=%$r0:s64" "-O2 pa_target: the entry"
t_like "$UPFT_ERR" "pa_target at 0x$(sym pa_target): .* \\((emulated|single-stepped)\\)" \
	"... -v names the instruction"

# -O0 twice a b, whose first body line is an inlined copy of scale(): upfront at the entry's
# push %rbp from %edi/%esi, perf probe past the prologue (the inlined code) from the frame
# slots the prologue stores them in; both in one instance over one run: the same values
lb=$T/c/lines-O0
tw=$(nm "$lb" | sed -n 's/^0*\([0-9a-f]*\) T twice$/\1/p')
upft_run -v -x "$lb" -D 'twice a b'
if [ "$UPFT_ARCH" = arm64 ]; then
	t_like "$UPFT_OUT" "^p:\S+ \S+/c/lines-O0:0x[0-9a-f]+ a=\+[0-9]+\(%sp\):s32 b=\+[0-9]+\(%sp\):s32\$" \
		"-O0 twice a b: past the prologue, from the sp slots"
else
	t_like "$UPFT_OUT" "^p:\S+ \S+/c/lines-O0:0x$tw a=%di:s32 b=%si:s32\$" \
		"-O0 twice a b: the entry, from the ABI's registers"
fi
mine=$(printf '%s\n' "$UPFT_OUT" | grep '^p:')
theirs=$(upft_perf_probe -x "$lb" -D 'twice a b' 2>/dev/null | grep '^p:')
[ -n "$theirs" ] || t_bail "perf probe -D 'twice a b' printed no definition"
t_unlike "$theirs" ":0x$tw " "... perf probe puts it past the prologue"
ev1=$(upft_define "$mine") || t_bail "cannot define $mine"
ev2=$(upft_define "$(printf '%s\n' "$theirs" | sed 's|^p:\([^/]*\)/twice |p:\1/twice_perf |')") ||
	t_bail "cannot define perf's $theirs"
inst=$(upft_instance twice) || t_bail "cannot create an instance"
echo 1 >"$inst/events/$ev1/enable" && echo 1 >"$inst/events/$ev2/enable"
"$lb" 7 >/dev/null
echo 0 >"$inst/events/$ev1/enable" && echo 0 >"$inst/events/$ev2/enable"
t_is "$(sed -n 's/.* twice: ([^)]*) //p' "$inst/trace")" "a=7 b=8" "... upfront's reads a=7 b=8"
t_is "$(sed -n 's/.* twice_perf: ([^)]*) //p' "$inst/trace")" "a=7 b=8" "... perf's the same"

# Go: main.find (no stack check) on the jne after cmp $1,%rax (arm64: b.ne after cmp x0, #1):
# emulated, id still in %rax (x0)
go=$T/go/orders
gf=$(nm "$go" | sed -n 's/^0*\([0-9a-f]*\) T main\.find$/\1/p')
upft_run -v -x "$go" -D 'main.find id'
t_like "$UPFT_OUT" "^p:\S+ \S+/go/orders:0x[0-9a-f]+ id=%$g0:s64\$" "Go main.find id: from %$g0"
t_like "$UPFT_ERR" "main.find at 0x$(printf '%x' $((0x$gf + 4))): $jne .* \(emulated\)" \
	"... on the $jne at +4, emulated (-v)"

t_done
