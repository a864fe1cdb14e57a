#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# stack-cfi.sh - --stack (dwarf, the default): whole stacks of -O2 code without frame pointers,
# unwound by CFI from the copy of the stack top each event takes, through Debian's libraries
#
# The frames were checked against gdb's bt by hand (gdb -batch -ex 'break F' -ex run -ex bt):
# - c/sortcb-O2, by_key: by_key, msort_with_tmp x4 (two inlined), qsort_r, sort_items (its
#   symbol sort_items.constprop.0), main;
#   gdb also shows qsort between qsort_r and sort_items: qsort tail-calls qsort_r (jmp), so
#   no return address of it is on the stack; gdb makes that frame up from DW_TAG_call_site.
# - cpp/sorter-O2, Rect::area on a std::thread: the same 11 frames as gdb, the inlined
#   std::sort ones included, libstdc++'s (no symbol: gdb says ??), start_thread, clone3.
# - rust/sorter-O2, sorter::shapes::area: gdb's 26 frames, lang_start's inlined ones included.
# The kernel's frame-pointer walk (--stack=fp) gives 2 frames for the first (issue 22).
. "$(dirname "$0")/lib.sh"
upft_need_root
C=$UPFT_TARGETS/c/sortcb-O2
CXX=$UPFT_TARGETS/cpp/sorter-O2
RS=$UPFT_TARGETS/rust/sorter-O2
upft_need_targets "$C" "$CXX" "$RS"

# frames JSON N - the N-th event's stack, frames joined with "|", then its stack_cut if any
frames() {
	printf '%s\n' "$1" | python3 -c '
import json, sys
n = int(sys.argv[1])
evs = [json.loads(l) for l in sys.stdin if l.startswith("{\"time\"")]
if n > len(evs):
    print("(no event)")
else:
    e = evs[n - 1]
    print("|".join(e.get("stack", ["(no stack key)"])) + ("|CUT:" + e["stack_cut"] if "stack_cut" in e else ""))
' "$2"
}

H='\+0x[0-9a-f]+'

# 1. C: a callback through libc's qsort, libc's frames named from libc6-dbg
upft_run --json --stack -x "$C" by_key -- "$C" 2
t_is "$UPFT_RC" 0 "C: --stack exits 0"
t_is "$(upft_json_count "$UPFT_OUT")" 6 "C: six calls of the comparator"
st=$(frames "$UPFT_OUT" 1)
t_like "$st" "^by_key\+0x0\|msort_with_tmp\.part\.0$H\|msort_with_tmp\|msort_with_tmp\.part\.0$H\|msort_with_tmp\|qsort_r$H\|sort_items(\.constprop\.[0-9]+)?$H\|main$H\|__libc_start_call_main$H\|__libc_start_main$H\|_start$H$" \
	"C: by_key through qsort's merge sort to sort_items, main and _start, as gdb shows it"
bad=$(printf '%s\n' "$UPFT_OUT" | grep '^{"time"' | grep -vc '"stack":\["by_key+0x0",.*"sort_items[.a-z0-9]*+0x[0-9a-f]*","main+0x[0-9a-f]*",.*"_start+0x[0-9a-f]*"\]')
t_is "$bad" 0 "C: every event has the whole stack"

# 2. the frame-pointer walk on the same: what the kernel gives without frame pointers; arm64's
# gcc -O2 and Debian's arm64 libc keep the frame records (x29, x30) it follows: all of it
upft_run --json --stack=fp -x "$C" by_key -- "$C" 1
st=$(frames "$UPFT_OUT" 1)
if [ "$(uname -m)" = aarch64 ]; then
	t_like "$st" "^by_key\+0x0\|.*\|qsort_r$H\|sort_items(\.constprop\.[0-9]+)?$H\|main$H\|.*\|_start$H$" \
		"C, --stack=fp: arm64's frame records lead to main and _start"
else
	t_unlike "$st" 'sort_items' "C, --stack=fp: the walk stops before sort_items (no frame pointers)"
fi

# 3. a copy too small: the stack is cut there, marked, nothing guessed past it
upft_run --json --stack=dwarf,64 -x "$C" by_key -- "$C" 1
st=$(frames "$UPFT_OUT" 1)
t_like "$st" "^by_key\+0x0\|msort_with_tmp\.part\.0$H\|CUT:copy$" \
	"C, 64 bytes: two frames, then the stack is cut at the copy's end"
upft_run --stdio --stack=dwarf,64 -x "$C" by_key -- "$C" 1
t_like "$UPFT_OUT" '^	 +\.\.\. stack cut: the next frame is past the stack copied' "text: the cut is said"
upft_run --stdio --stack -x "$C" by_key -- "$C" 1
t_like "$UPFT_OUT" "^	 *[0-9a-f]+ sort_items(\.constprop\.[0-9]+)?$H \($C\)$" "text: sort_items's frame with its file"
t_like "$UPFT_OUT" "^	 *[0-9a-f]+ qsort_r$H \(/.*libc\.so\.6\)$" "text: qsort_r's, in libc"
t_unlike "$UPFT_OUT" 'stack cut' "text: a whole stack has no cut line"

# 4. C++: std::sort's comparator on a std::thread, through libstdc++ and libc's thread start
upft_run --json --stack -x "$CXX" 'Rect::area' -- "$CXX" 1
t_is "$UPFT_RC" 0 "C++: --stack exits 0"
st=$(frames "$UPFT_OUT" 1)
# the thread's first frame: x86-64's glibc clone3, arm64's thread_start (in its clone3.S)
case $(uname -m) in
aarch64) first=thread_start ;;
*) first=clone3 ;;
esac
t_like "$st" "^Rect::area\+0x0\|by_area$H\|__gnu_cxx::__ops::_Iter_comp_iter<[^|]*>::operator\(\)<[^|]*>\|std::__insertion_sort<[^|]*>$H\|std::__final_insertion_sort<[^|]*>\|std::__sort<[^|]*>\|std::sort<[^|]*>\|sort_shapes$H\|0x[0-9a-f]+\|start_thread$H\|$first$H$" \
	"C++: area, by_area, std::sort's inlined frames, sort_shapes, libstdc++, start_thread, $first"

# 5. Rust: slice::sort_by's closure, down to lang_start and _start
upft_run --json --stack -x "$RS" 'sorter::shapes::area' -- "$RS" 1
st=$(frames "$UPFT_OUT" 1)
# the sort's own frame: rustc 1.95's std (x86-64), Debian 12's rustc 1.63 (the arm64 root's)
case $(uname -m) in
aarch64) sortf='alloc::slice::merge_sort' ;;
*) sortf='core::slice::sort::shared::smallsort::insertion_sort_shift_left' ;;
esac
t_like "$st" "^sorter::shapes::area\+0x0\|sorter::shapes::sort_rects::\{\{closure\}\}\|.*\|$sortf$H\|.*\|sorter::shapes::sort_rects$H\|sorter::main$H\|.*\|std::rt::lang_start_internal$H\|main$H\|__libc_start_call_main$H\|__libc_start_main$H\|_start$H$" \
	"Rust: area, the sort's frames, sort_rects, main, lang_start, _start"

# 6. a probe in a signal handler that interrupted the vDSO: the vDSO's frame is named from
# upfront's own copy of its image (gdb: "#3 clock_gettime ()" or "gettimeofday ()"); the
# signal frame (its XSAVE area) is larger than the largest copy, so the stack is cut there
T=$UPFT_TARGETS/c/ticks-O0
upft_need_targets "$T"
upft_run --json --stack -x "$T" on_tick -- "$T" 3000000
n=$(upft_json_count "$UPFT_OUT")
t_ok $((n < 5)) "ticks: $n events (5 or more)"
if [ "$(uname -m)" = aarch64 ]; then
	# arm64's signal frames return through the vDSO's __kernel_rt_sigreturn, which has had no
	# CFI since Linux 5.8 (gdb and libgcc recognize its two instructions instead): named,
	# then the stack ends there for want of CFI, nothing guessed past it
	sr=$(printf '%s\n' "$UPFT_OUT" | grep -c '"stack":\["on_tick+0x[0-9a-f]*","handler+0x[0-9a-f]*","__kernel_rt_sigreturn+0x0"\],"stack_cut":"cfi"')
	t_is "$sr" "$n" "ticks: every stack through the handler to the vDSO's sigreturn, then cut: no CFI"
else
	vd=$(printf '%s\n' "$UPFT_OUT" | grep -c '"__restore_rt+0x0","\(__vdso_\)\?\(clock_gettime\|gettimeofday\)+0x[0-9a-f]*"\],"stack_cut":"copy"')
	t_ok $((vd == 0)) "ticks: $vd stacks through the signal frame into the vDSO, named, then cut"
	t_unlike "$UPFT_OUT" '"stack_cut":"cfi"' "ticks: no stack ends for want of CFI (the vDSO's is read)"
fi

# 7. the option's words
upft_run --stack=dwarf,100 -x "$C" by_key
t_is "$UPFT_RC" 2 "--stack=dwarf,100: exit 2"
t_like "$UPFT_ERR" 'wants a multiple of 8' "--stack=dwarf,100: says why"
# the kernel's 3072 bytes less the registers: x86-64's 17, arm64's 33
case $(uname -m) in
aarch64) largest=2808 ;;
*) largest=2936 ;;
esac
upft_run --stack=dwarf,4096 -x "$C" by_key
t_like "$UPFT_ERR" "from 8 to $largest" "--stack=dwarf,4096: names the largest ($largest)"
upft_run --stack=frames -x "$C" by_key
t_like "$UPFT_ERR" "wants fp, dwarf or dwarf,BYTES, not 'frames'" "--stack=frames: names the modes"

# 8. arm64: return addresses signed (c/sortcb-pac, -mbranch-protection=pac-ret: paciasp signs
# x30 before the frame record keeps it, on a CPU with pointer authentication, as qemu's -cpu
# max): libdwfl took the signed words for return addresses ("60aaaac80c07f0 [unknown]" after
# sort_items, the stack cut there); stripped, the frames are gdb's ("main [PAC]")
if [ "$(uname -m)" = aarch64 ]; then
	PAC=$UPFT_TARGETS/c/sortcb-pac
	upft_need_targets "$PAC"
	upft_run --json --stack -x "$PAC" by_key -- "$PAC" 1
	st=$(frames "$UPFT_OUT" 1)
	t_like "$st" "^by_key\+0x0\|.*\|qsort_r$H\|sort_items(\.constprop\.[0-9]+)?$H\|main$H\|__libc_start_call_main$H\|__libc_start_main$H\|_start$H$" \
		"arm64 pac-ret: main and _start past the signed return addresses, as gdb shows them"
	# past paciasp, before the frame record: the caller's address is in x30, signed
	upft_run --json --stack -x "$PAC" 'sort_items.constprop.0+8' -- "$PAC" 1
	st=$(frames "$UPFT_OUT" 1)
	t_like "$st" "^sort_items\.constprop\.0\+0x8\|main$H\|__libc_start_call_main$H\|__libc_start_main$H\|_start$H$" \
		"arm64 pac-ret: the caller from the signed x30 past paciasp"
fi

t_done
