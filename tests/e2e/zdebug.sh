#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# zdebug.sh - compressed DWARF (gcc -gz=zlib; Go compresses its own) inflated by upfront before
# libdw opens it (src/debugsec.c): -F, -D and -V give exactly what the same binary with its
# sections decompressed by objcopy gives; a corrupted stream, a section header that promises
# more bytes than the stream holds, or an absurd size leave that section unread, as libdw's
# zlib path did: the probe is refused for want of DWARF, nothing crashes
. "$(dirname "$0")/lib.sh"

upft_need_root
cat >"$UPFT_TMP/z.c" <<'EOF'
struct point { int x, y; };
static inline int sq(int v) { return v * v; }
__attribute__((noinline)) int area(struct point *p, int k) { return sq(p->x) * p->y + k; }
int main(int argc, char **argv) { struct point p = { argc, 2 }; return area(&p, argc); }
EOF
mkdir "$UPFT_TMP/c" "$UPFT_TMP/d"	# the same name in both: probe names come from it
Z=$UPFT_TMP/c/zt
gcc -O2 -g -gz=zlib -o "$Z" "$UPFT_TMP/z.c" || t_bail "cannot build with -gz=zlib"
objcopy --decompress-debug-sections "$Z" "$UPFT_TMP/d/zt"
readelf -SW "$Z" | grep -q 'debug_info .* C ' || t_bail "gcc -gz=zlib did not compress"

# "-F", "-D PROBE" or "-V PLACE" on both; each binary's directory replaced by DIR
same() {
	local what=$1 z p

	shift
	UPFRONT_CACHE=off upft_run -x "$Z" "$@"
	z="$UPFT_RC ${UPFT_OUT//$UPFT_TMP\/c/DIR}"
	UPFRONT_CACHE=off upft_run -x "$UPFT_TMP/d/zt" "$@"
	p="$UPFT_RC ${UPFT_OUT//$UPFT_TMP\/d/DIR}"
	t_is "$z" "$p" "$what: compressed as decompressed"
}
same "-F" -F
t_like "$UPFT_OUT" $'^sq\t\\(inlined\\)$' "-F: the inlined-only function (read from .debug_info)"
same "-D with a field" -D 'area p->x p->y k'
# p and k in the first two argument registers (x86-64's rdi, rsi; arm64's x0, x1)
a0=%di a1=%si
[ "$UPFT_ARCH" = arm64 ] && a0=%x0 a1=%x1
t_like "$UPFT_OUT" " x=\\+0\\($a0\\):s32 .* y=\\+4\\($a0\\):s32 k=$a1:s32\$" "-D: the fields' offsets"
same "-V" -V area
same "-D of an inlined function" -D 'sq v'

# hostile section headers and streams: byte offsets of .debug_info's Chdr and stream
read -r off < <(readelf -SW "$Z" | awk '$2 == ".debug_info" { print $5 }')
off=$((16#$off))
spoil() {	# NAME OFFSET PYTHON-STRUCT-FORMAT VALUE | NAME OFFSET xor
	python3 - "$Z" "$UPFT_TMP/$1" "$2" "$3" "${4:-}" <<'EOF'
import struct, sys
src, dst, off, how, val = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5]
b = bytearray(open(src, "rb").read())
if how == "xor":
    b[off] ^= 0xff
else:
    struct.pack_into(how, b, off, int(val))
open(dst, "wb").write(b)
EOF
	chmod +x "$UPFT_TMP/$1"
}
size=$(python3 -c "import struct,sys; print(struct.unpack_from('<Q', open(sys.argv[1],'rb').read(), $off + 8)[0])" "$Z")
spoil corrupt $((off + 24 + 2 + 8)) xor
spoil longer $((off + 8)) '<Q' $((size * 2))
spoil huge $((off + 8)) '<Q' $((1 << 40))
for b in corrupt longer huge; do
	UPFRONT_CACHE=off upft_run -x "$UPFT_TMP/$b" -D 'area k'
	t_is "$UPFT_RC" 2 "$b .debug_info: the probe is refused (exit 2), no crash"
	t_like "$UPFT_ERR" 'no debug information' "$b .debug_info: for want of DWARF"
	UPFRONT_CACHE=off upft_run -x "$UPFT_TMP/$b" -F
	t_is "$UPFT_RC" 0 "$b .debug_info: -F lists the symbols (exit 0)"
	t_unlike "$UPFT_OUT" 'inlined' "$b .debug_info: -F shows nothing read from it"
done
t_done
