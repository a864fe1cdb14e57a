#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# dyntypes.sh - the curses view shows typeid() across the files of the process as text and
# JSON do: a class whose vtable is in the program (probed in the library) by its name, a type
# word that names nothing as unknown with its file and address (tests/e2e/cases/dynmodules.cases)
. "$(dirname "$0")/lib.sh"

upft_need_root
command -v tmux >/dev/null || t_bail "tmux is not installed (apt-get install tmux)"
C=$UPFT_TARGETS/cpp
for f in libsink-O2.so sink-O2 libdyn-O2.so dyn-O2; do
	[ -e "$C/$f" ] || t_bail "targets not built (tests/targets/build.sh $UPFT_TARGETS)"
done

# 100 rounds, 100 ms apart: the view ends with the command
tui_start 160 40 -x "$C/libsink-O2.so" 'sink::put x t=typeid(*(memory_managed *)p)' \
	-- "$C/sink-O2" 100 100
tui_wait 'put +x=30 t=local_elem' 15
t_ok $? "a class of the program, probed in the library: named (local_elem)"
tui_wait 'put +x=10 t=plain_elem' 5
t_ok $? "a vtable copy-relocated into the program: named (plain_elem)"
tui_keys q
t_is "$(tui_wait_exit 10)" 0 "q quits with status 0"
tui_kill_server

tui_start 160 40 -x "$C/libdyn-O2.so" 'draw seq t=typeid(*s)' -- "$C/dyn-O2" 100 100
tui_wait 'draw +seq=2 t=<unknown vtable libdyn-O2\.so\+0x[0-9a-f]+>' 15
t_ok $? "a word into the library's data: unknown, with the file and address"
tui_wait 'draw +seq=3 t=<unknown vtable dyn-O2\+0x[0-9a-f]+>' 5
t_ok $? "a word into the program's data: unknown, with the file and address"
tui_keys q
t_is "$(tui_wait_exit 10)" 0 "q quits with status 0"
t_done
