#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# unmapped.sh - a -x library the traced command never maps (lua5.4 links Lua statically, so
# liblua5.4.so.0 is never loaded) is named on stderr after a few seconds without events,
# instead of a silent "0 events"; a library the command does map gets no such warning
. "$(dirname "$0")/lib.sh"
upft_need_root

command -v lua5.4 >/dev/null || t_bail "lua5.4 not installed (apt-get install lua5.4)"
lib=$(readlink -f /usr/lib/$UPFT_MULTIARCH/liblua5.4.so.0 2>/dev/null)
[ -e "$lib" ] || t_bail "liblua5.4.so.0 not installed (apt-get install liblua5.4-0)"

upft_run --stdio -x liblua5.4.so.0 luaH_getshortstr -- lua5.4 -e 'os.execute("sleep 4")'
t_is "$UPFT_RC" 0 "-x liblua5.4.so.0 -- lua5.4: exits 0"
t_like "$UPFT_ERR" "^upfront: warning: .*$lib is not mapped by the traced process \\(pid [0-9]+\\) after 3 s: its probes cannot fire there" \
	"... and says the library is not mapped by the traced process"
t_like "$UPFT_ERR" 'upfront: 0 events, 0 lost' "... 0 events"

# libc is mapped (by sh and by sleep, its child): no warning
upft_run --stdio -x libc.so.6 getaddrinfo -- sh -c 'sleep 4; true'
t_is "$UPFT_RC" 0 "-x libc.so.6 -- sh -c 'sleep 4': exits 0"
t_unlike "$UPFT_ERR" 'not mapped' "... no warning for a library the command maps"
t_done
