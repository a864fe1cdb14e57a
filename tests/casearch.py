# SPDX-License-Identifier: GPL-2.0-or-later
# casearch.py - the architecture axis of the case files (tests/unit/run-translate,
# tests/e2e/run-cases)
"""
An expectation that depends on the machine (a -D line names its registers, an error names
a vector register) is written once per architecture: DIRECTIVE@ARCH, ARCH as upfront names
the machine (its arch_ops.name: x86-64, arm64). Plain DIRECTIVE lines hold on every machine.

  LINE@x86-64  p:probe_orders/process_order {entry process_order} id=+0(%di):s32
  LINE@arm64   p:probe_orders/process_order {entry process_order} id=+0(%x0):s32

A case is run against a binary of one machine (its ELF e_machine; run-cases: the machine it
runs on) and expects, in file order, its plain lines and those keyed by that machine. A case
with keyed lines of a directive but none for the machine has no expectation there yet (its
plain lines alone would check less): the runners report it as a TAP TODO ("no LINE@arm64
yet"), so a port shows what is left instead of failing on x86 registers, and a TODO is not a
pass. Where one machine refuses what another translates, or the reverse, run-translate's
EXIT@ARCH gives that machine its own kind of case (an ERROR or a DEFINE there).
"""

import os
import struct

# ELF e_machine -> upfront's name of the machine (src/arch/*.c, arch_ops.name)
MACHINES = {62: "x86-64", 183: "arm64"}

# the fetcharg of the program counter on each machine (arch_ops.ip_fetch)
PC_FETCH = {"x86-64": "%ip", "arm64": "%pc"}

# the GNU triplet of each machine: a cross binutils' prefix (Debian's binutils-TRIPLET)
TRIPLETS = {"x86-64": "x86_64-linux-gnu", "arm64": "aarch64-linux-gnu"}


def elf_arch(path):
    """the machine of the ELF file at path, as MACHINES names it, or "machine N"; None when
    the file cannot be read"""
    try:
        with open(path, "rb") as f:
            head = f.read(20)
    except OSError:
        return None
    if len(head) < 20 or head[:4] != b"\x7fELF":
        return None
    machine = struct.unpack("<H" if head[5] == 1 else ">H", head[18:20])[0]
    return MACHINES.get(machine, "machine %d" % machine)


def host_arch():
    """the machine this runs on, as MACHINES names it (the e2e cases probe its programs)"""
    m = os.uname().machine
    return {"x86_64": "x86-64", "aarch64": "arm64"}.get(m, m)


def objdump(arch):
    """the objdump that disassembles machine arch: the host's own for its machine, else the
    cross binutils' (the host's objdump knows only its machine: "can't disassemble for
    architecture UNKNOWN!")"""
    if arch == host_arch() or arch not in TRIPLETS:
        return "objdump"
    return TRIPLETS[arch] + "-objdump"


def split_word(word):
    """"LINE@arm64" -> ("LINE", "arm64"); "LINE" -> ("LINE", None)"""
    base, _, arch = word.partition("@")
    return base, arch or None


class Keyed:
    """the lines of one directive of one case, each for every machine or for one"""

    def __init__(self):
        self.lines = []     # [(arch or None, text)]

    def add(self, arch, text):
        self.lines.append((arch, text))

    def __bool__(self):
        return bool(self.lines)

    def machines(self):
        return sorted({a for a, _ in self.lines if a})

    def missing(self, arch):
        """true when some lines are keyed but none by arch: no expectation for arch yet"""
        return bool(self.machines()) and arch not in self.machines()

    def for_arch(self, arch):
        return [t for a, t in self.lines if a is None or a == arch]
