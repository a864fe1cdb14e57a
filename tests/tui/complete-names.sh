#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# complete-names.sh - Tab in the add prompt offers every name -F lists: a function that exists
# only inlined (reach.c's scale_qty, without -F's "(inlined)" marker) and an old symbol
# version by the name that probes it (libc's pthread_kill@GLIBC_2.2.5), an SDT probe
# (sdt_reach:callback)
. "$(dirname "$0")/lib.sh"

upft_need_root
command -v tmux >/dev/null || t_bail "tmux is not installed (apt-get install tmux)"
R=$UPFT_TARGETS/c/reach-O2
[ -x "$R" ] || t_bail "test target missing (tests/targets/build.sh)"
libc=$(ldd "$R" | awk '$1 == "libc.so.6" { print $3 }')
[ -e "$libc" ] || t_bail "no libc.so.6 in ldd's output"

tab() {
	tui_keys -l -- "$1"
	tui_keys Tab
}
cands() {
	tui_screen | sed -n '/^ [^ ]* *$/{s/^ //;s/ *$//;p}' | paste -sd,
}
prompt_is() {
	tui_wait "^add probe: $1 *\$" 15
	t_ok $? "$2" || t_diag "$(tui_screen | tail -4)"
}

# --- an inlined-only function ---
tui_start 160 40 -x "$R" 'small_order' -- sleep 120
tui_wait ' probes 1 ' 15
t_ok $? "reach-O2: the view opens" || t_diag "$(tui_screen | tail -4; cat "$UPFT_TMP/err")"
tui_keys a
tab 'scale_q'
prompt_is 'scale_qty' "an inlined-only function completes, without the (inlined) marker"
tui_keys Enter
tui_wait 'added scale_qty' 10
t_ok $? "... and the completed probe is added" || t_diag "$(tui_screen | tail -3)"
tui_keys a
tab 'sdt_re'
prompt_is 'sdt_reach:callback' "an SDT probe completes, as -F lists it"
tui_keys Escape
tui_keys q
t_is "$(tui_wait_exit 15)" 0 "reach-O2: q exits with status 0"
tui_kill_server

# --- an old symbol version ---
tui_start 160 40 -x "$libc" 'nanosleep' -- sleep 120
tui_wait ' probes 1 ' 15
t_ok $? "libc: the view opens" || t_diag "$(tui_screen | tail -4; cat "$UPFT_TMP/err")"
tui_keys a
tab 'pthread_kill'
gre=${UPFT_GLIBC_BASE//./\\.}	# lib.sh: GLIBC_2.2.5, arm64's GLIBC_2.17
tui_wait "^ pthread_kill@$gre *\$" 10
t_ok $? "libc: Tab lists pthread_kill@$UPFT_GLIBC_BASE among the matches" ||
	t_diag "$(tui_screen | tail -8)"
t_unlike "$(cands)" $'\t' "... no candidate carries a tab"
tab '@'
prompt_is "pthread_kill@$gre" "libc: NAME@ completes to the old version"
tui_keys Enter
tui_wait "added pthread_kill_$UPFT_GLIBC_BASE_EV" 10
t_ok $? "... and the completed probe is added, named with its version" ||
	t_diag "$(tui_screen | tail -3)"
tui_keys q
t_is "$(tui_wait_exit 15)" 0 "libc: q exits with status 0"
t_done
