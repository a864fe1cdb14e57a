#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# nums.sh - numbers, faults and NULL as the text line shows them (nums.cases checks JSON):
# complex numbers as (1 + 2i), 128-bit integers with every digit, a read through a pointer
# into unmapped memory as (fault), a NULL char * as the language spells it (NULL), never 0.
# Values: tests/targets/README.md ("nums"), checked with gdb and delve.
. "$(dirname "$0")/lib.sh"

T=$UPFT_TARGETS
[ -x "$T/c/nums-O2" ] && [ -x "$T/go/nums" ] || t_bail "test targets not built (tests/targets/build.sh)"
upft_need_root

for o in O0 O2; do
	bin=$T/c/nums-$o
	upft_run --stdio 'wide w->z w->zf w->s a u=*w->unread w->zero' 'lookup node service' -- "$bin"
	t_is "$UPFT_RC" 0 "C $o: runs"
	t_like "$UPFT_OUT" " wide z=\\(1 \\+ 2i\\) zf=\\(-1.5 \\+ -0.25i\\) s=-1267650600228229401496703205383 a=1267650600228229401496703205383 u=\\(fault\\) zero=0\$" \
		"C $o: complex, __int128, *unread a fault, a 0 read through a good pointer 0"
	t_like "$UPFT_OUT" " lookup node=\"localhost\" service=NULL\$" "C $o: a NULL char * is NULL"
	t_like "$UPFT_OUT" " lookup node=\"example.org\" service=\"http\"\$" "C $o: ... and text when set"
done

for b in nums nums-N; do
	upft_run --stdio 'main.check n.C64 n.C128 u=*n.Unread n.PInf' -- "$T/go/$b"
	t_like "$UPFT_OUT" " check C64=\\(1 \\+ 2i\\) C128=\\(-1.5 \\+ 0.25i\\) u=\\(fault\\) PInf=inf\$" \
		"Go $b: complex64, complex128, *unread a fault"
done
# the summary counts complex numbers and 128-bit integers by their text
upft_run --summary-only 'wide w->z w->s' -- "$T/c/nums-O2"
t_like "$UPFT_OUT" "^ +1  \\(1 \\+ 2i\\)\$" "summary: a complex number by its text"
t_like "$UPFT_OUT" "^ +1  -1267650600228229401496703205383\$" "summary: an __int128 by its text"

# a float parameter in xmm0 (arm64: v0) followed to its copy: -D and -v say where the probe went
case $UPFT_ARCH in
arm64) reg=x1 vec=v0 copy='fmov x1, d0' at='stlr' ;;
*) reg=cx vec=xmm0 copy='movd %xmm0, %rcx' at='xchg' ;;
esac
upft_run -x "$T/go/nums" -D 'main.(*gauge).Set val'
t_like "$UPFT_OUT" " val=%$reg:x64\$" "Go: -D reads Set's val from %$reg"
t_like "$UPFT_OUT" "^# probe_nums/Set: 'val' was in $vec: read where '$copy' at 0x[0-9a-f]+ copied it, the probe is at 0x[0-9a-f]+\$" \
	"Go: ... and says so in a comment"
upft_run -v -x "$T/go/nums" -D 'main.(*gauge).Set val'
t_like "$UPFT_ERR" "main.\\(\\*gauge\\).Set: 'val' was in $vec: read where '$copy' at 0x[0-9a-f]+ copied it, the probe is at 0x[0-9a-f]+ \\($at" \
	"Go: -v says it too, with the instruction probed"
upft_run --stdio 'main.(*gauge).Set val' 'main.(*gauge).Value%return $retval' -- "$T/go/nums"
t_like "$UPFT_OUT" " Set val=42.5\$" "Go: Set(42.5)"
t_like "$UPFT_OUT" " Value__return r0=-inf\$" "Go: Value() returns -inf, from %rax (arm64: %x0)"
t_like "$UPFT_OUT" " Set val=0.10000000000000001\$" "Go: Set(0.1), every digit"
t_done
