#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# binaries.sh - what -x accepts: ELF executables and libraries of a machine upfront has a table
# for (x86-64, arm64: src/arch/), checked before any DWARF is read (a foreign binary's register
# numbers would become another machine's names), with every segment inside the file; special
# files named as what they are; a soname never found in the current directory. Foreign
# binaries are built with the compilers each machine has: on x86-64 gcc -m32/-mx32 -nostdlib
# (i386, x32) and aarch64-linux-gnu-gcc (-D of an arm64 binary: translation needs no arm64
# CPU), on arm64 the x86-64 forwarder tests/targets/build.sh makes there and hand-patched
# i386 and x32 headers; everywhere arm64 ILP32 (aarch64-linux-gnu-gcc -mabi=ilp32) and
# hand-patched ELF headers on copies of the machine's own binary.
. "$(dirname "$0")/lib.sh"

T=$UPFT_TARGETS
[ -x "$T/c/orders-O0" ] || t_bail "test targets not built (tests/targets/build.sh)"
D=$UPFT_TMP

cat >"$D/f.c" <<'EOF'
int f(int a, int b) { return a * b + 1; }
void _start(void) { f(2, 3); for (;;); }
EOF
gcc -g -O0 -nostdlib -static -o "$D/f64" "$D/f.c" || t_bail "gcc cannot build a -nostdlib binary"
aarch64-linux-gnu-gcc -g -O2 -nostdlib -static -o "$D/fa64" "$D/f.c" ||
	t_bail "aarch64-linux-gnu-gcc -nostdlib cannot build an arm64 binary (install-deps.sh)"
aarch64-linux-gnu-gcc -mabi=ilp32 -g -O0 -nostdlib -static -o "$D/filp32" "$D/f.c" ||
	t_bail "aarch64-linux-gnu-gcc -mabi=ilp32 -nostdlib cannot build an arm64 ILP32 binary"

# patch FILE OFFSET HEXBYTES - overwrite bytes of FILE at OFFSET
patch() {
	printf "$(printf '%s' "$3" | sed 's/../\\x&/g')" |
		dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}

case $UPFT_ARCH in
x86-64)
	gcc -m32 -g -O0 -nostdlib -static -fno-pie -no-pie -o "$D/f32" "$D/f.c" ||
		t_bail "gcc -m32 -nostdlib cannot build an i386 binary"
	gcc -mx32 -g -O0 -nostdlib -static -o "$D/fx32" "$D/f.c" ||
		t_bail "gcc -mx32 -nostdlib cannot build an x32 binary"
	;;
*)	# no i386 or x32 compiler here: the machine's own binary as ELF32 with their e_machine
	# (EM_386, EM_X86_64: what upfront reads first); an x86-64 binary: the forwarder
	cp "$D/f64" "$D/f32" && patch "$D/f32" 4 01 && patch "$D/f32" 18 0300
	cp "$D/f64" "$D/fx32" && patch "$D/fx32" 4 01 && patch "$D/fx32" 18 3e00
	fx64=$T/go/dnsfwd-amd64
	[ -x "$fx64" ] || t_bail "no $fx64 (tests/targets/build.sh builds it off x86-64)"
	;;
esac

# one_error NAME ERE - exit 2, no output, one line on stderr matching ERE
one_error() {
	t_is "$UPFT_RC" 2 "$1: exit 2"
	t_like "$UPFT_ERR" "$2" "$1: the reason"
	t_is "$(printf '%s\n' "$UPFT_ERR" | wc -l)" 1 "$1: one line"
	t_is "$UPFT_OUT" "" "$1: no definition"
}

# --- the machine's own binary is accepted
upft_run -x "$D/f64" -D 'f a b'
t_is "$UPFT_RC" 0 "$UPFT_ARCH -nostdlib binary (gcc): -D exits 0"
t_like "$UPFT_OUT" '^p:probe_f64/f .*/f64:0x[0-9a-f]+ a=' "... with a definition"

# --- an arm64 binary is translated with arm64's registers (AAPCS64: a in x0, b in x1)
upft_run -x "$D/fa64" -D 'f a b' 'f%return $retval'
t_is "$UPFT_RC" 0 "arm64 -nostdlib binary: -D exits 0"
t_like "$UPFT_OUT" '^p:probe_fa64/f .*/fa64:0x[0-9a-f]+ a=%x0:s32 b=%x1:s32$' \
	"... a and b in x0 and x1"
t_like "$UPFT_OUT" '^r:probe_fa64/f__return .*/fa64:0x[0-9a-f]+ retval=\$retval:s32$' \
	"... the result in x0"
# --- and an x86-64 one with x86-64's (Go's register ABI: the receiver's r in rdi)
if [ -n "${fx64:-}" ]; then
	upft_run -x "$fx64" -D 'main.(*server).handleRequest r->MsgHdr.Id'
	t_is "$UPFT_RC" 0 "x86-64 binary on $UPFT_ARCH: -D exits 0"
	t_like "$UPFT_OUT" '^p:\S+/handleRequest \S+/dnsfwd-amd64:0x[0-9a-f]+ Id=\+0\(%di\):u16 ' \
		"... r (in rdi) with x86-64's register names"
fi

# --- foreign machines: e_machine (offset 18) and e_ident[EI_CLASS, EI_DATA] (4, 5)
upft_run -x "$D/f32" -D 'f a b'
one_error "i386" '^upfront: .*/f32 is ELF for i386, upfront probes x86-64 and arm64 only$'
upft_run -x "$D/fx32" -D 'f a b'
one_error "x32" 'is ELF for x32, upfront probes x86-64 and arm64 only$'

cp "$D/f64" "$D/arm" && patch "$D/arm" 4 01 && patch "$D/arm" 18 2800
upft_run -x "$D/arm" -D 'f a b'
one_error "ARM" 'arm is ELF for ARM, upfront probes x86-64 and arm64 only$'
upft_run -x "$D/filp32" -F
one_error "arm64 ILP32 (-mabi=ilp32, -F)" 'filp32 is ELF for arm64 ILP32, upfront probes x86-64 and arm64 only$'
cp "$D/f64" "$D/riscv" && patch "$D/riscv" 18 f300
upft_run -x "$D/riscv" -V f
one_error "RISC-V (-V)" 'is ELF for RISC-V, upfront probes x86-64 and arm64 only$'
cp "$D/f64" "$D/ppc" && patch "$D/ppc" 4 0102 && patch "$D/ppc" 18 0014
upft_run -x "$D/ppc" -D 'f a b'
one_error "big-endian PowerPC" 'is ELF for PowerPC \(big-endian\), upfront probes x86-64 and arm64 only$'
cp "$D/f64" "$D/x86be" && patch "$D/x86be" 5 02 && patch "$D/x86be" 18 003e
upft_run -x "$D/x86be" -D 'f a b'
one_error "big-endian x86-64 header" 'is ELF for x86-64|big-endian'

# in trace mode nothing is installed either
upft_run --max-events 1 -x "$D/f32" 'f a b'
t_is "$UPFT_RC" 2 "i386 in trace mode: exit 2"
t_unlike "$(cat "$UPFT_TRACEFS/uprobe_events")" "/f32:" "... nothing in uprobe_events"

# --- corrupt and cut files
cp "$T/c/orders-O0" "$D/badoff"
phoff=$(python3 -c 'import struct,sys; print(struct.unpack_from("<Q", open(sys.argv[1],"rb").read(), 32)[0])' "$D/badoff")
nload=$(python3 - "$D/badoff" <<'EOF'
import struct, sys
b = open(sys.argv[1], "rb").read()
phoff, = struct.unpack_from("<Q", b, 32)
phnum, = struct.unpack_from("<H", b, 56)
for i in range(phnum):
	t, f = struct.unpack_from("<II", b, phoff + 56 * i)
	if t == 1 and f & 1:		# the PT_LOAD with the code
		print(i)
		break
EOF
)
[ -n "$nload" ] || t_bail "no executable PT_LOAD in orders-O0"
# p_offset of that segment: 8 bytes at +8 of its header; 1 MiB past the start of the file
patch "$D/badoff" $((phoff + 56 * nload + 8)) 0000100000000000
upft_run -x "$D/badoff" -D process_order
one_error "PT_LOAD p_offset past the end" \
	"badoff: segment $nload \\(PT_LOAD at file offset 0x100000, 0x[0-9a-f]+ bytes\\) ends past the end of the file \\(0x[0-9a-f]+ bytes\\): truncated or corrupt\$"

head -c 9000 "$T/c/orders-O0" >"$D/cut"
upft_run -x "$D/cut" -D process_order
one_error "a binary cut at 9000 bytes" 'cut: segment [0-9]+ \(PT_LOAD .* ends past the end of the file \(0x2328 bytes\)'
head -c 40 "$T/c/orders-O0" >"$D/cut40"
upft_run -x "$D/cut40" -D process_order
one_error "a binary cut inside its ELF header" 'cut40: its ELF header is cut short'
cp "$T/c/orders-O0" "$D/phoff" && patch "$D/phoff" 32 00000000ff000000
upft_run -x "$D/phoff" -D process_order
one_error "program headers past the end" 'phoff: its program headers are not inside the file'
printf 'not a binary\n' >"$D/text"
upft_run -x "$D/text" -D process_order
one_error "a text file" 'text is not an ELF binary$'
gcc -c -g -o "$D/f.o" "$D/f.c"
upft_run -x "$D/f.o" -D f
one_error "an object file" 'f.o is not an executable or shared library \(ELF type relocatable, a .o\)$'

# --- special files: said what they are, never opened (a FIFO would block)
mkfifo "$D/fifo"
UPFT_TIMEOUT=10 upft_run -x "$D/fifo" -D f
one_error "a FIFO" '^upfront: .*/fifo is a FIFO, not a binary$'
upft_run -x "$D" -D f
one_error "a directory" '^upfront: .* is a directory, not a binary$'
upft_run -x /dev/null -D f
one_error "a character device" '^upfront: /dev/null is a character device, not a binary$'
upft_run -x "$D/none" -D f
one_error "a missing file" "^upfront: no such binary '.*/none'\$"

# --- a symbol-less binary (no .symtab, no .dynsym): an empty list, not qsort(NULL, 0)
gcc -O0 -nostdlib -static -s -o "$D/bare" "$D/f.c"
upft_run -x "$D/bare" -F
t_is "$UPFT_RC" 0 "-F on a binary without symbols exits 0"
t_is "$UPFT_OUT$UPFT_ERR" "" "... listing nothing (a UBSan build: no runtime error)"
upft_run -x "$D/bare" -D f
t_is "$UPFT_RC" 2 "-D FUNC on a binary without symbols exits 2"
t_unlike "$UPFT_ERR" 'runtime error' "... without a UBSan runtime error"

# --- a soname is never looked up in the current directory
mkdir "$D/cwd" && cp "$T/c/orders-O0" "$D/cwd/libc.so.6"
# (ldconfig -p names the machine's own libc6,x86-64 or libc6,AArch64)
case $UPFT_ARCH in arm64) lc=AArch64 ;; *) lc=$UPFT_ARCH ;; esac
real=$(ldconfig -p | sed -n "s/^\\s*libc\\.so\\.6 (libc6,$lc.*) => //p" | head -1)
[ -n "$real" ] || t_bail "ldconfig -p knows no $lc libc.so.6"
(cd "$D/cwd" && upft_run -x libc.so.6 -D malloc && printf '%s\n%s\n' "$UPFT_RC" "$UPFT_OUT" \
	>"$D/soname.out")
t_is "$(sed -n 1p "$D/soname.out")" 0 "-x libc.so.6 in a directory holding a libc.so.6: exit 0"
t_like "$(sed -n 2p "$D/soname.out")" "^# build-id [0-9a-f]+; binary $(readlink -f "$real")\$" \
	"... the ld.so.cache one ($(readlink -f "$real")), not ./libc.so.6"
t_unlike "$(cat "$D/soname.out")" "$D/cwd" "... no line names the planted file"
(cd "$D/cwd" && upft_run -x ./libc.so.6 -D process_order && printf '%s\n' "$UPFT_OUT" \
	>"$D/dot.out")
t_like "$(cat "$D/dot.out")" "^p:.* $D/cwd/libc.so.6:0x" "-x ./libc.so.6 (a path) is that file"
cp "$T/c/orders-O0" "$D/cwd/orders-here"
(cd "$D/cwd" && PATH=.:$PATH upft_run -x orders-here -D process_order &&
	printf '%s\n%s\n' "$UPFT_RC" "$UPFT_ERR" >"$D/path.out")
t_is "$(sed -n 1p "$D/path.out")" 2 "a bare name is not found through a relative \$PATH entry"
t_like "$(sed -n 2p "$D/path.out")" "^upfront: no such binary 'orders-here'; .*; the current directory is not searched: write ./orders-here for the file there\$" \
	"... no such binary, with a hint to write ./NAME"

t_done
