#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# hostile-names.py OUTDIR - build OUTDIR/hostile: a C program whose function, variable, type
# and field names (in .symtab and DWARF) and source file name hold newlines, ESC/OSC sequences
# and CR, as a hostile binary could. The compiler sees placeholders of the same length, which
# are then overwritten in .strtab and .debug_str (nothing else moves). Prints the names.
import os
import struct
import subprocess
import sys

NAMES = [
    (b'F', b'evil\nfake_func\x1b[31m'),	# a function
    (b'V', b'v\x1b]0;pwn\x07\nfake_var'),	# its parameter
    (b'T', b'T\x1b[2J'),			# a struct
    (b'D', b'f\rfake'),			# a field
]
SOURCE = '''struct T@ { int D@; int n; };
__attribute__((noinline)) int inner(int x) { return x + 1; }
__attribute__((noinline)) int F@(struct T@ *V@) { return inner(V@->D@ + V@->n); }
__attribute__((noinline)) int normal_func(struct T@ *p) { return p->n; }
int main(void) { struct T@ t = { 1, 2 }; return F@(&t) + normal_func(&t) - 6; }
'''
SRCNAME = 'src\x1b[2J\nx.c'	# the source file's name, as DWARF gives it to -L


def placeholder(key, name):
    return b'Q' + key + b'Q' * (len(name) - 2)


def sections(data):
    shoff, = struct.unpack_from('<Q', data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from('<HHH', data, 0x3a)
    hdrs = [struct.unpack_from('<IIQQQQIIQQ', data, shoff + i * shentsize)
            for i in range(shnum)]
    names = hdrs[shstrndx][4]
    for h in hdrs:
        end = data.index(b'\0', names + h[0])
        yield data[names + h[0]:end].decode(), h[4], h[5]


def main():
    out = os.path.abspath(sys.argv[1])
    src = SOURCE
    for key, name in NAMES:
        src = src.replace(key.decode() + '@', placeholder(key, name).decode())
    path = os.path.join(out, SRCNAME)
    with open(path, 'w') as f:
        f.write(src)
    binary = os.path.join(out, 'hostile')
    subprocess.run(['gcc', '-g', '-O0', '-fno-omit-frame-pointer', '-o', binary, SRCNAME],
                   cwd=out, check=True)
    data = bytearray(open(binary, 'rb').read())
    patched = 0
    for sec, off, size in list(sections(bytes(data))):
        if sec not in ('.strtab', '.debug_str'):
            continue
        for key, name in NAMES:
            ph = placeholder(key, name)
            i = data.find(ph, off, off + size)
            while i >= 0:
                data[i:i + len(ph)] = name
                patched += 1
                i = data.find(ph, i + len(ph), off + size)
    if patched < len(NAMES):
        sys.exit('hostile-names.py: only %d names patched' % patched)
    with open(binary, 'wb') as f:
        f.write(data)


main()
