#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# sdt.sh - USDT / SDT probes (sdt_PROVIDER:NAME): the notes of a <sys/sdt.h> target with and
# without semaphores and of Debian's python3.11; listed (-F, -V), defined like perf (-D, -a),
# traced with exact values; a semaphore is counted by the kernel so the guarded path runs
. "$(dirname "$0")/lib.sh"
upft_need_root

py=/usr/bin/python3.11
for o in O0 O2; do
	[ -x "$UPFT_TARGETS/c/sdt-$o" ] || t_bail "$UPFT_TARGETS/c/sdt-$o not built (systemtap-sdt-dev)"
done
[ -x "$py" ] || t_bail "$py not installed (apt-get install python3.11)"
command -v perf >/dev/null || t_bail "perf not installed (apt-get install linux-perf)"
grep -q ref_ctr_offset "$UPFT_TRACEFS/README" ||
	t_bail "this kernel's uprobes have no ref_ctr_offset (Linux 4.20+)"

# semoff BIN SYMBOL - the file offset of a data symbol (where the kernel counts a semaphore)
semoff() {
	readelf -SW "$1" | awk '$2 == ".probes" { print "0x" $4, "0x" $5 }' | {
		read -r addr off
		local sym
		sym=$(readelf -sW "$1" | awk -v n="$2" '$8 == n { print "0x" $2; exit }')
		printf '0x%x' $((sym - addr + off))
	}
}

# --- listing ---
bin=$UPFT_TARGETS/c/sdt-O2
upft_run -x "$bin" -F 'sdt_*'
t_is "$UPFT_OUT" "$(printf 'sdt_upft:guarded\nsdt_upft:item\nsdt_upft:konst\nsdt_upft:noargs\nsdt_upft:sizes\nsdt_upft:unused')" \
	"-F 'sdt_*' lists the target's SDT probes as sdt_PROVIDER:NAME"
upft_run -x "$bin" -F
t_like "$UPFT_OUT" '^work$' "-F without a glob lists functions ..."
t_like "$UPFT_OUT" '^sdt_upft:item$' "... and SDT probes"
upft_run -x "$py" -F 'sdt_python:*'
t_like "$UPFT_OUT" '^sdt_python:gc__start$' "-F lists python3.11's sdt_python:gc__start"
t_is "$(printf '%s\n' "$UPFT_OUT" | wc -l)" 8 "... and its 8 SDT probes"

upft_run -x "$py" -V sdt_python:gc__start
t_is "$UPFT_RC" 0 "-V sdt_python:gc__start exits 0 (python3.11 has no DWARF)"
t_like "$UPFT_OUT" 'semaphore at 0x[0-9a-f]+' "... names the semaphore"
# (the note's operands are the machine's assembler syntax: arm64's "-4@[sp, 152]"; arm64 has no
# pc-relative operand, its compiler puts a global's address in a register: "-8@[x6]")
if [ "$UPFT_ARCH" = arm64 ]; then
	t_like "$UPFT_OUT" $'^\t\ts32\t\\$arg1\t-4@\\[sp, 152\\]\t\\+152\\(%sp\\)$' \
		"... \$arg1: size and sign, the note's location, the kernel's fetch"
else
	t_like "$UPFT_OUT" $'^\t\ts32\t\\$arg1\t-4@112\\(%rsp\\)\t\\+112\\(%sp\\)$' \
		"... \$arg1: size and sign, the note's location, the kernel's fetch"
fi
upft_run -x "$UPFT_TARGETS/c/sdt-O2" -V sdt_upft:konst
if [ "$UPFT_ARCH" = arm64 ]; then
	t_like "$UPFT_OUT" $'\\$arg3\t-8@\\[x([0-9]+)\\]\t\\+0\\(%x\\1\\)$' \
		"-V: a global's argument is read through the register holding its address"
else
	t_like "$UPFT_OUT" $'\\$arg3\t-8@upft_counter\\(%rip\\)\t[-+][0-9]+\\(%ip\\)$' \
		"-V: a %rip-relative argument is read relative to the probe (+D(%ip); @+OFFSET is added twice before the 2026 fix)"
fi

# --- definitions: the same lines as perf probe where perf can express the argument ---
for o in O0 O2; do
	bin=$UPFT_TARGETS/c/sdt-$o
	for p in item sizes guarded unused noargs; do
		upft_run -x "$bin" -D "sdt_upft:$p"
		want=$(upft_perf_probe -x "$bin" -D "sdt_upft:$p" 2>/dev/null)
		got=$(printf '%s\n' "$UPFT_OUT" | grep '^p:')
		# arm64's perf parses only xN and [sp, N] operands and drops the arguments of a
		# note with others ('-4@[x2]', '-8@[x2, 8]'): its place, and the arguments it has
		if [ "$UPFT_ARCH" = arm64 ] && [ "$want" = "$(cut -d' ' -f1-2 <<<"$want")" ]; then
			got=$(cut -d' ' -f1-2 <<<"$got")
		fi
		t_is "$got" "$want" "sdt-$o: -D sdt_upft:$p is perf probe's line"
	done
	upft_run -x "$bin" -D sdt_upft:guarded
	t_like "$UPFT_OUT" "^p:sdt_upft/guarded $bin:0x[0-9a-f]+\\($(semoff "$bin" upft_guarded_semaphore)\\) " \
		"sdt-$o: the guarded probe carries its semaphore's file offset"
	upft_run -x "$bin" -D sdt_upft:konst
	if [ "$(upft_kernel imm)" = yes ]; then
		t_like "$UPFT_OUT" ' arg1=\\5:s32 arg2=\\-7:s32 arg3=' \
			"sdt-$o: constant arguments (-4@\$5, -4@\$-7) are kernel immediates (perf drops them)"
	else
		t_like "$UPFT_OUT" '^p:sdt_upft/konst \S+ arg3=' \
			"sdt-$o: constant arguments (-4@\$5, -4@\$-7) are kept by upfront (no \\IMM)"
	fi
done
upft_run -x "$py" -D sdt_python:gc__start
t_is "$(printf '%s\n' "$UPFT_OUT" | grep '^p:')" "$(upft_perf_probe -x "$py" -D sdt_python:gc__start 2>/dev/null)" \
	"python3.11: -D sdt_python:gc__start is perf probe's line"
upft_run -x "$py" -D '%sdt_python:import__find__load__start name=$arg1:string'
pa=%ax	# python3.11 note's $arg1: in rax (arm64: 8@x0)
[ "$UPFT_ARCH" = arm64 ] && pa=%x0
t_like "$UPFT_OUT" "^p:sdt_python/import__find__load__start $py:0x[0-9a-f]+\\(0x[0-9a-f]+\\) name=\\+0\\($pa\\):string\$" \
	"%sdt_ spelling, \$arg1:string reads the string the argument points to"

# --- errors ---
upft_run -x "$py" -D sdt_python:gc_start
t_is "$UPFT_RC" 2 "an unknown SDT probe exits 2"
t_like "$UPFT_ERR" 'no SDT probe sdt_python:gc_start .*SDT probes there: .*sdt_python:gc__start' \
	"... naming the probes that exist"
upft_run -x "$py" -D 'sdt_python:gc__start $arg2'
t_is "$UPFT_RC" 2 "\$arg2 of a probe with one argument exits 2"
t_like "$UPFT_ERR" 'has 1 argument \(\$arg1\)' "... saying how many it has"
upft_run -x "$py" -D 'sdt_python:gc__start gen'
t_like "$UPFT_ERR" 'arguments are \$arg1\.\.\$argN, not variables' "a variable name at an SDT probe is an error"
upft_run -x /usr/bin/true -D 'sdt_x:y'
t_like "$UPFT_ERR" 'has no SDT probes' "a binary without .note.stapsdt says so"
upft_run -x "$UPFT_TARGETS/c/sdt-O0" -D 'work $arg1'
t_like "$UPFT_ERR" "'\\\$arg1' is an SDT probe's argument" "\$argN outside an SDT place is an error"

# --- trace: exact values at -O0 (stack slots) and -O2 (registers, %rip, memory) ---
for o in O0 O2; do
	bin=$UPFT_TARGETS/c/sdt-$o
	upft_run --stdio -x "$bin" 'sdt_upft:item' 'sdt_upft:item name=$arg2:string qty=$arg3' \
		'sdt_upft:sizes' 'sdt_upft:konst' 'sdt_upft:noargs' -- "$bin" 2
	t_is "$UPFT_RC" 0 "sdt-$o: tracing SDT probes exits 0"
	t_like "$UPFT_OUT" ' item arg1=100 arg2=[0-9]+ arg3=-1$' "sdt-$o: item: every argument when none is named (perf's arg1..)"
	t_like "$UPFT_OUT" ' item_1 name="item-1" qty=999$' "sdt-$o: \$arg2:string, \$arg3 (s64) of round 1"
	t_like "$UPFT_OUT" ' sizes arg1=-5 arg2=-300 arg3=4000000000 arg4=-1234567890123$' \
		"sdt-$o: -1@ -2@ 4@ -8@ arguments with their sizes and signs"
	t_like "$UPFT_OUT" ' sizes arg1=-6 arg2=-301 arg3=4000000001 arg4=-1234567890124$' "sdt-$o: ... round 1"
	t_like "$UPFT_OUT" ' konst arg1=5 arg2=-7 arg3=43$' "sdt-$o: constants and the global counter"
	t_like "$UPFT_OUT" ' noargs$' "sdt-$o: a probe without arguments"
	# the command's own output (on stdout or, kept apart from events, on stderr)
	t_unlike "$UPFT_OUT$UPFT_ERR" '^guarded' "sdt-$o: the guarded path is not taken while its probe is not traced"
	t_like "$UPFT_ERR" 'upfront: 10 events, 0 lost' "sdt-$o: 10 events"

	upft_run --stdio -x "$bin" 'sdt_upft:guarded k=$arg1 what=$arg2:string' -- "$bin" 2
	t_like "$UPFT_OUT
$UPFT_ERR" '^guarded k=0$' "sdt-$o: tracing the guarded probe makes the program take its path"
	t_like "$UPFT_OUT" ' guarded k=0 what="expensive-item-0"$' "sdt-$o: ... and its event has the values"
	t_like "$UPFT_OUT" ' guarded k=1 what="expensive-item-1"$' "sdt-$o: ... in round 1 too"
	t_unlike "$UPFT_OUT" ' unused ' "sdt-$o: the other semaphore stays 0"
done

# a process that started before the probe was enabled gets its semaphore counted too
bin=$UPFT_TARGETS/c/sdt-O0
upft_run -x "$bin" -g "$UPFT_GROUP" -a 'sdt_upft:guarded k=$arg1'
t_is "$UPFT_RC" 0 "-a sdt_upft:guarded exits 0"
t_like "$(cat "$UPFT_TRACEFS/uprobe_events")" "^p:$UPFT_GROUP/guarded $bin:0x[0-9a-f]+\\(0x[0-9a-f]+\\) k=" \
	"-a writes the probe with its (REF_CTR_OFFSET)"
upft_run -d "$UPFT_GROUP:guarded"
t_is "$UPFT_RC" 0 "-d removes it"

# --- a shared library's SDT probes: libstdc++'s throw and catch ---
lib=$(readlink -f /usr/lib/$UPFT_MULTIARCH/libstdc++.so.6)
upft_run -x libstdc++.so.6 -D sdt_libstdcxx:throw
t_is "$(printf '%s\n' "$UPFT_OUT" | grep '^p:')" "$(upft_perf_probe -x "$lib" -D sdt_libstdcxx:throw 2>/dev/null)" \
	"libstdc++.so.6: -D sdt_libstdcxx:throw is perf probe's line"
printf '%s\n' '#include <stdexcept>' '#include <cstdio>' \
	'int main() { for (int i = 0; i < 2; i++) { try { throw std::runtime_error("boom"); }' \
	'catch (const std::exception &e) { std::puts(e.what()); } } return 0; }' >"$UPFT_TMP/thr.cpp"
g++ -O1 -o "$UPFT_TMP/thr" "$UPFT_TMP/thr.cpp" || t_bail "g++"
upft_run --stdio -x libstdc++.so.6 'sdt_libstdcxx:throw' 'sdt_libstdcxx:catch' -- "$UPFT_TMP/thr"
t_is "$(printf '%s\n' "$UPFT_OUT" | grep -cE ' (throw|catch) arg1=[0-9]+ arg2=[0-9]+$')" 4 \
	"a program's two throws and catches fire libstdc++'s SDT probes (4 events)"

# --- Debian's python3.11: semaphores guard every probe ---
upft_run --stdio -x "$py" 'sdt_python:gc__start gen=$arg1' \
	'sdt_python:import__find__load__start name=$arg1:string' \
	'sdt_python:import__find__load__done name=$arg1:string found=$arg2' -- \
	"$py" -c 'import gc, os; gc.disable(); gc.collect(0); gc.collect(1); gc.collect(2); import colorsys; os._exit(0)'
t_is "$UPFT_RC" 0 "python3.11: tracing gc__start and the import probes exits 0"
t_is "$(printf '%s\n' "$UPFT_OUT" | sed -n 's/.* gc__start gen=//p' | tail -3 | tr '\n' ' ')" "0 1 2 " \
	"python3.11: gc__start's generation of gc.collect(0), (1), (2)"
t_like "$UPFT_OUT" ' import__find__load__start name="colorsys"$' "python3.11: import__find__load__start names the module"
t_like "$UPFT_OUT" ' import__find__load__done name="colorsys" found=1$' "python3.11: ... and __done says it was found"
t_done
