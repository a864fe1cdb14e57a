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

# 2. the frame-pointer walk on the same: what the kernel gives without frame pointers
upft_run --json --stack=fp -x "$C" by_key -- "$C" 1
st=$(frames "$UPFT_OUT" 1)
t_unlike "$st" 'sort_items' "C, --stack=fp: the walk stops before sort_items (no frame pointers)"

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
t_like "$st" "^Rect::area\+0x0\|by_area$H\|__gnu_cxx::__ops::_Iter_comp_iter<[^|]*>::operator\(\)<[^|]*>\|std::__insertion_sort<[^|]*>$H\|std::__final_insertion_sort<[^|]*>\|std::__sort<[^|]*>\|std::sort<[^|]*>\|sort_shapes$H\|0x[0-9a-f]+\|start_thread$H\|clone3$H$" \
	"C++: area, by_area, std::sort's inlined frames, sort_shapes, libstdc++, start_thread, clone3"

# 5. Rust: slice::sort_by's closure, down to lang_start and _start
upft_run --json --stack -x "$RS" 'sorter::shapes::area' -- "$RS" 1
st=$(frames "$UPFT_OUT" 1)
t_like "$st" "^sorter::shapes::area\+0x0\|sorter::shapes::sort_rects::\{\{closure\}\}\|.*\|core::slice::sort::shared::smallsort::insertion_sort_shift_left$H\|.*\|sorter::shapes::sort_rects$H\|sorter::main$H\|.*\|std::rt::lang_start_internal$H\|main$H\|__libc_start_call_main$H\|__libc_start_main$H\|_start$H$" \
	"Rust: area, the sort's frames, sort_rects, main, lang_start, _start"

# 6. a probe in a signal handler that interrupted the vDSO: the vDSO's frame is named from
# upfront's own copy of its image (gdb: "#3 clock_gettime ()" or "gettimeofday ()"); the
# signal frame (its XSAVE area) is larger than the largest copy, so the stack is cut there
T=$UPFT_TARGETS/c/ticks-O0
upft_need_targets "$T"
upft_run --json --stack -x "$T" on_tick -- "$T" 3000000
n=$(upft_json_count "$UPFT_OUT")
t_ok $((n < 5)) "ticks: $n events (5 or more)"
vd=$(printf '%s\n' "$UPFT_OUT" | grep -c '"__restore_rt+0x0","\(__vdso_\)\?\(clock_gettime\|gettimeofday\)+0x[0-9a-f]*"\],"stack_cut":"copy"')
t_ok $((vd == 0)) "ticks: $vd stacks through the signal frame into the vDSO, named, then cut"
t_unlike "$UPFT_OUT" '"stack_cut":"cfi"' "ticks: no stack ends for want of CFI (the vDSO's is read)"

# 7. the option's words
upft_run --stack=dwarf,100 -x "$C" by_key
t_is "$UPFT_RC" 2 "--stack=dwarf,100: exit 2"
t_like "$UPFT_ERR" 'wants a multiple of 8' "--stack=dwarf,100: says why"
upft_run --stack=dwarf,4096 -x "$C" by_key
t_like "$UPFT_ERR" 'from 8 to 2936' "--stack=dwarf,4096: names the largest"
upft_run --stack=frames -x "$C" by_key
t_like "$UPFT_ERR" "wants fp, dwarf or dwarf,BYTES, not 'frames'" "--stack=frames: names the modes"

t_done
