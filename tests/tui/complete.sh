#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# complete.sh - Tab in the add prompt completes functions, variables, and fields after '->' and
# '.', in C and in Go; $retval only at a %return place; the completed probe installs and shows
. "$(dirname "$0")/lib.sh"

upft_need_root
command -v tmux >/dev/null || t_bail "tmux is not installed (apt-get install tmux)"
C=$UPFT_TARGETS/c/orders-O0
GO=$UPFT_TARGETS/go/orders
[ -x "$C" ] && [ -x "$GO" ] || t_bail "test targets missing (tests/targets/build.sh)"

# tab TEXT - type TEXT literally, then Tab
tab() {
	tui_keys -l -- "$1"
	tui_keys Tab
}

# cands - the completions listed above the prompt, ','-separated
cands() {
	tui_screen | sed -n '/^ [^ ]* *$/{s/^ //;s/ *$//;p}' | paste -sd,
}

# prompt_is ERE DESC - the add prompt reads exactly ERE (then blanks)
prompt_is() {
	tui_wait "^add probe: $1 *\$" 15
	t_ok $? "$2" || t_diag "$(tui_screen | tail -4)"
}

# --- C: process_batch(struct order **orders, int n), orders[0]->customer->name is "alice"
tui_start 160 40 -x "$C" 'process_order o->id' -- "$C" 0 200
tui_wait 'process_order +id=10[12]' 15
t_ok $? "C: the view shows events"

tui_keys a
tab 'process_ba'
prompt_is 'process_batch' "C: a function name completes"
tab 'ord'
prompt_is 'process_batch orders' "C: a partial variable completes"
tab '[0]->cust'
prompt_is 'process_batch orders\[0\]->customer' "C: a partial field after '->' completes"
tab '->'
tui_wait '^ code *$' 5
t_ok $? "C: Tab after '->' lists the fields of the pointed-to struct" ||
	t_diag "$(tui_screen | tail -8)"
t_is "$(cands)" "name,code,age,tier" "C: all of them, in declaration order"
tab 'na'
prompt_is 'process_batch orders\[0\]->customer->name' "C: the field after the list completes"
tab ' $r'
tui_wait "no completion for '\\\$r'" 10
t_ok $? "C: no \$retval at a function entry: the prompt says there is no completion"
prompt_is 'process_batch orders\[0\]->customer->name \$r' "C: ... and the text stays as typed"
tui_keys BSpace BSpace Tab
tui_wait '^ \$vars *$' 5
t_is "$(cands)" 'orders,n,sum,$params,$vars' \
	"C: Tab lists the variables and the special arguments valid at an entry"
tui_keys -l n
tui_keys Enter
tui_wait 'added process_batch' 10
t_ok $? "C: the completed probe is added" || t_diag "$(tui_screen | tail -3)"
tui_wait 'process_batch +name="alice" +n=2' 10
t_ok $? "C: its events show the completed field"

tui_keys a
tab 'process_order%return $r'
prompt_is 'process_order%return \$retval' "C: \$retval completes at a %return place"
tui_keys Escape

# a field of something without fields: the reason, above the prompt
tui_keys a
tab 'process_order o->nosuch.'
tui_wait "has no field 'nosuch'" 5
t_ok $? "C: a bad field is reported above the prompt" || t_diag "$(tui_screen | tail -3)"
tui_keys Escape q
t_is "$(tui_wait_exit 15)" 0 "C: q exits with status 0"
tui_kill_server

# --- Go: main.(*Store).Add(o *Order); o.Customer.Name is "alice" or "bob"
tui_start 160 40 -x "$GO" 'main.total' -- "$GO" 0 200
tui_wait ' probes 1 ' 15
t_ok $? "Go: the view opens"

tui_keys a
tab 'main.(*Store).A'
prompt_is 'main\.\(\*Store\)\.Add' "Go: a method name completes"
tab 'o.Cust'
prompt_is 'main\.\(\*Store\)\.Add o\.Customer' "Go: a partial field after '.' through a pointer"
tab '.N'
prompt_is 'main\.\(\*Store\)\.Add o\.Customer\.Name' "Go: a field of a struct held by value"
tab ' o.Cre'
prompt_is 'main\.\(\*Store\)\.Add o\.Customer\.Name o\.Created' "Go: a field of an embedded struct"
tab ' $r'
tui_wait "no completion for '\\\$r'" 10
t_ok $? "Go: no \$retval at a function entry"
prompt_is 'main\.\(\*Store\)\.Add o\.Customer\.Name o\.Created \$r' \
	"Go: ... the text stays as typed"
tui_keys Escape

tui_keys a
tab 'main.process i'
prompt_is 'main\.process ids' "Go: a partial variable completes"
tab ' na'
prompt_is 'main\.process ids name' "Go: another variable completes"
tui_keys Escape

tui_keys a
tab 'main.(*Store).Add o.Customer.Na'
prompt_is 'main\.\(\*Store\)\.Add o\.Customer\.Name' "Go: completes in one go"
tui_keys Enter
tui_wait 'added Add' 10
t_ok $? "Go: the completed probe is added" || t_diag "$(tui_screen | tail -3)"
tui_wait 'Add +Name="(alice|bob)"' 10
t_ok $? "Go: its events show the completed field"

tui_keys q
t_is "$(tui_wait_exit 15)" 0 "Go: q exits with status 0"
t_done
