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
t_like "$UPFT_OUT" $'^scale_qty\t\\(inlined\\)$' \
	"-F lists the inlined-only scale_qty, marked (inlined)"
t_like "$UPFT_OUT" '^small_order$' "... and functions with code unmarked"
t_unlike "$UPFT_OUT" $'^(small_order|large_order|main)\t' "... (no out-of-line function is marked)"
t_is "$(printf '%s\n' "$UPFT_OUT" | grep -v '^sdt_' | cut -f1 | sort -c 2>&1)" "" \
	"... in one sorted list (then SDT probes)"
upft_run -x "$bin" -F 'scale*'
t_is "$UPFT_OUT" $'scale_qty\t(inlined)' "-F GLOB matches inlined-only functions too"
upft_run -x "$UPFT_TARGETS/c/reach-O0" -F 'scale*'
t_is "$UPFT_OUT" "scale_qty" "-O0: the same function has code of its own, unmarked"

upft_run -x "$bin" -D 'scale_qty q f'
t_is "$UPFT_RC" 0 "-D of an inlined-only function exits 0"
t_is "$(printf '%s\n' "$UPFT_OUT" | grep -c '^p:')" 2 "... one probe point per inlined copy"
if [ "$(upft_kernel imm)" = yes ]; then
	t_like "$UPFT_OUT" ' f=\\3:s32$' "... the copy in small_order (f is the constant 3)"
	t_like "$UPFT_OUT" ' f=\\7:s32$' "... the copy in large_order (f is 7)"
else
	# without \IMM upfront keeps the constants (the trace below shows them)
	t_unlike "$UPFT_OUT" ' f=' "... f, the constant 3 or 7, is kept by upfront, not written"
fi

upft_run --stdio -x "$bin" 'scale_qty q f' -- "$bin" 2
t_is "$UPFT_RC" 0 "tracing the inlined-only function exits 0"
for want in 'q=5 f=3' 'q=6 f=7' 'q=6 f=3' 'q=7 f=7'; do
	t_like "$UPFT_OUT" " scale_qty $want\$" "... an event with $want"
done
t_like "$UPFT_ERR" 'upfront: 4 events, 0 lost' "... 4 events, one per copy per round"

upft_run -x "$libc" -F '*'
t_like "$UPFT_OUT" $'^[A-Za-z_][A-Za-z0-9_]*\t\\(inlined\\)$' \
	"libc: -F lists inlined-only functions (libc6-dbg)"

# --- symbol versions: NAME@VERSION, NAME@@VERSION (libc's pthread_kill of glibc 2.34 and the
# old one kept for programs linked before) ---
# symaddr NAME - the value of a .dynsym symbol as readelf spells it ("pthread_kill@GLIBC_2.2.5")
symaddr() {
	readelf -W --dyn-syms "$libc" | awk -v n="$1" '$8 == n { print "0x" $2; exit }'
}
# in_func OFFSET START - the -D offset lies in the 64 bytes from START (libc: offset = address)
in_func() {
	[ -n "$1" ] && [ -n "$2" ] && (($1 >= $2 && $1 < $2 + 64))
}
# glibc's first version on this machine (lib.sh), and pthread_kill's second parameter register
G=$UPFT_GLIBC_BASE
r1=si
[ "$UPFT_ARCH" = arm64 ] && r1=x1
kill_names=$(printf '%s\n' pthread_kill pthread_kill@$G \
	pthread_kill_other_threads_np@$G)
old_at=$(symaddr pthread_kill@$G)
new_at=$(symaddr pthread_kill@@GLIBC_2.34)
[ -n "$old_at" ] && [ -n "$new_at" ] && [ "$old_at" != "$new_at" ] ||
	t_bail "$libc has no pthread_kill@$G beside pthread_kill@@GLIBC_2.34"
dfn_off() {
	printf '%s\n' "$UPFT_OUT" | sed -n 's/^p:[^ ]* [^ ]*:\(0x[0-9a-f]*\).*/\1/p' | head -1
}
upft_run -x "$libc" -D "pthread_kill@$G signo"
t_is "$UPFT_RC" 0 "-D pthread_kill@$G exits 0"
in_func "$(dfn_off)" "$old_at"
t_ok $? "... probes the old version's code ($old_at), not the current one"
t_like "$UPFT_OUT" " signo=%$r1:s32\$" "... with its DWARF parameters"
for p in 'pthread_kill@@GLIBC_2.34' 'pthread_kill@GLIBC_2.34' 'pthread_kill' \
	'pthread_kill@pthread_kill.c'; do
	upft_run -x "$libc" -D "$p"
	in_func "$(dfn_off)" "$new_at"
	t_ok $? "-D $p probes the current version ($new_at)"
done
upft_run -x "$libc" -F 'pthread_kill*'
t_is "$UPFT_OUT" "$kill_names" \
	"-F lists an old version by the name that probes it, NAME@VERSION"
upft_run -x "$libc" -D "pthread_kill@@$G"
t_is "$UPFT_RC" 2 "-D NAME@@VERSION of an old version exits 2"
versions="versions: pthread_kill@@GLIBC_2.34, pthread_kill@$G\$"
t_like "$UPFT_ERR" "^upfront: no function 'pthread_kill@@$G' in libc.so.6.*$versions" \
	"... naming the versions there are"
upft_run -x "$libc" -D 'pthread_kill@GLIBC_2.99'
t_is "$UPFT_RC" 2 "-D NAME@SUFFIX of neither a version nor a source file exits 2"
t_like "$UPFT_ERR" "no function 'pthread_kill' in GLIBC_2.99.*$versions" \
	"... and lists the versions"
upft_run -x "$libc" -D 'pthread_kill@@GLIBC_2.99'
t_like "$UPFT_ERR" "libc.so.6 defines no symbol version 'GLIBC_2.99'" \
	"-D NAME@@VERSION of an undefined version says so"

# without debuginfo only .dynsym names the functions, and its names carry no version:
# .gnu.version does (before, plain pthread_kill probed both versions)
nodbg=$UPFT_TMP/libc-nodbg.so
objcopy --remove-section .gnu_debuglink --remove-section .note.gnu.build-id "$libc" "$nodbg" ||
	t_bail "objcopy failed"
upft_run -x "$nodbg" -F 'pthread_kill*'
t_is "$UPFT_OUT" "$kill_names" \
	"no debuginfo (.dynsym and .gnu.version): -F lists the same names"
upft_run -x "$nodbg" -D pthread_kill
t_is "$(printf '%s\n' "$UPFT_OUT" | grep -c '^p:')" 1 "... plain pthread_kill is one probe point"
in_func "$(dfn_off)" "$new_at"
t_ok $? "... the current version"
upft_run -x "$nodbg" -D "pthread_kill@$G"
in_func "$(dfn_off)" "$old_at"
t_ok $? "... pthread_kill@$G the old one"

bin=$UPFT_TARGETS/c/reach-O2
upft_run --stdio -x "$libc" "old=pthread_kill@$G sig=signo" \
	'new=pthread_kill@@GLIBC_2.34 sig=signo' -- "$bin" 2
t_is "$UPFT_RC" 0 "tracing both versions of pthread_kill exits 0"
t_is "$(printf '%s\n' "$UPFT_OUT" | grep -c ' old sig=0$')" 2 \
	"... the old version fires for the program's 2 old calls"
t_is "$(printf '%s\n' "$UPFT_OUT" | grep -c ' new sig=0$')" 2 \
	"... the current one for its 2 current calls"

# --- ':sym' on SDT arguments: a pointer into the binary and one into libc ---
for o in O0 O2; do
	bin=$UPFT_TARGETS/c/reach-$o
	if [ "$UPFT_ARCH" = arm64 ] && [ $o = O2 ]; then
		# arm64's gcc -O2 writes $arg2 against a section anchor ('8@[x23, #:lo12:.LANCHOR1]':
		# an assembler-local label, in no symbol table): refused, saying so
		upft_run -x "$bin" -D 'sdt_reach:callback lib=$arg2:sym'
		t_is "$UPFT_RC" 2 "reach-$o: \$arg2 against a section anchor: exit 2"
		t_like "$UPFT_ERR" "#:lo12:\\.LANCHOR[0-9]+\\]': no symbol '\\.LANCHOR[0-9]+' in the binary" \
			"... naming the operand and the label it cannot find"
		upft_run --stdio -x "$bin" 'sdt_reach:callback own=$arg1:sym k=$arg3' -- "$bin" 2
		t_is "$UPFT_RC" 0 "reach-$o: tracing sdt_reach:callback exits 0"
		t_like "$UPFT_OUT" ' callback own=by_qty\+0x0 k=0$' \
			"reach-$o: :sym names a function of the binary"
		t_like "$UPFT_OUT" ' callback own=by_qty\+0x0 k=1$' "reach-$o: ... round 1"
		continue
	fi
	upft_run --stdio -x "$bin" 'sdt_reach:callback own=$arg1:sym lib=$arg2:sym k=$arg3' \
		-- "$bin" 2
	t_is "$UPFT_RC" 0 "reach-$o: tracing sdt_reach:callback exits 0"
	t_like "$UPFT_OUT" ' callback own=by_qty\+0x0 lib=qsort\+0x0 k=0$' \
		"reach-$o: :sym names a function of the binary and one of libc (process mappings)"
	t_like "$UPFT_OUT" ' callback own=by_qty\+0x0 lib=qsort\+0x0 k=1$' "reach-$o: ... round 1"
	upft_run --json -x "$bin" 'sdt_reach:callback lib=$arg2:sym' -- "$bin" 1
	t_is "$(upft_json_arg "$UPFT_OUT" 1 lib)" '"qsort+0x0"' "reach-$o: ... in JSON too"
done

# a probe in libc whose argument points into the program: qsort's comparator
upft_run --stdio -x "$libc" 'qsort cmp:sym' -- "$UPFT_TARGETS/c/reach-O2" 2
t_like "$UPFT_OUT" ' qsort cmp=by_qty\+0x0$' \
	"-x libc: ':sym' names a callback in the program (qsort's cmp)"

# --- --stack in a signal handler that interrupted the vDSO (clock_gettime, gettimeofday) ---
# The kernel's frame-pointer walk goes from the handler through __restore_rt to the frame the
# interrupted code had: the vDSO's own address is only in the signal frame, so no frame is
# ever in [vdso] (its inner calls are to frameless leaves); the vDSO's callers are named.
# (--stack=fp: the CFI unwinder, the default, has no CFI of the vDSO and stops there, marked.)
bin=$UPFT_TARGETS/c/ticks-O0
[ -x "$bin" ] || t_bail "$bin not built"
upft_run --stdio --stack=fp -x "$bin" on_tick -- "$bin" 3000000
t_is "$UPFT_RC" 0 "ticks: --stack on a function called from a SIGPROF handler exits 0"
n=$(printf '%s\n' "$UPFT_OUT" | grep -c ' on_tick$')
t_ok $((n < 5)) "ticks: $n events (the handler ran every 200 us of CPU)"
# (arm64's signal frames return through the vDSO's __kernel_rt_sigreturn, x86-64's through
# libc's __restore_rt: the one frame in the vDSO there)
sigret='__restore_rt+0x0 (.*libc\.so\.6)$'
[ "$UPFT_ARCH" = arm64 ] && sigret='__kernel_rt_sigreturn+0x0 (\[vdso\])$'
t_is "$(printf '%s\n' "$UPFT_OUT" | grep -c "$sigret")" "$n" \
	"... each stack goes through the signal frame (${sigret%%+*})"
t_like "$UPFT_OUT" $'^\t +[0-9a-f]+ clock_gettime\\+0x[0-9a-f]+ \\(.*libc\\.so\\.6\\)$' \
	"... into libc's clock_gettime when the signal hit the vDSO it called"
t_unlike "$(printf '%s\n' "$UPFT_OUT" | grep -v "$sigret")" 'unknown|vdso' \
	"... every frame named, none in the vDSO (but arm64's sigreturn)"

t_done
