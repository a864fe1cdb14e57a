#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# library.sh - a shared library named by soname, its DWARF from separate debuginfo (Debian's
# libc6-dbg under /usr/lib/debug/.build-id), probed for any process that maps it
. "$(dirname "$0")/lib.sh"
upft_need_root

libc=$(readlink -f /lib/x86_64-linux-gnu/libc.so.6)
[ -e "$libc" ] || t_bail "no libc.so.6"
command -v getent >/dev/null || t_bail "getent (libc-bin) not installed"
bid=$(readelf -n "$libc" | sed -n 's/.*Build ID: //p')
[ -e "/usr/lib/debug/.build-id/${bid:0:2}/${bid:2}.debug" ] ||
	t_bail "libc's debuginfo not installed (apt-get install libc6-dbg)"

upft_run -x libc.so.6 -D 'getaddrinfo name service'
t_is "$UPFT_RC" 0 "-x libc.so.6 -D getaddrinfo exits 0"
t_like "$UPFT_OUT" "^# build-id $bid; binary $libc\$" "the soname is resolved to $libc, build-id named"
t_like "$UPFT_OUT" "^p:probe_libc/getaddrinfo $libc:0x[0-9a-f]+ name=[^ ]+:string service=[^ ]+:string" \
	"parameters from the separate debuginfo, char * as :string (group probe_libc as perf)"

upft_run -x libc.so.6 -V getaddrinfo
t_like "$UPFT_OUT" "char \*[[:space:]]+name" "-V lists getaddrinfo's parameters with their types"

# the probe is on the library: it fires in getent, which maps it
upft_run --json --max-events 1 -x libc.so.6 'getaddrinfo name service' -- getent ahosts localhost
t_is "$UPFT_RC" 0 "tracing getaddrinfo in libc.so.6 under getent exits 0"
t_is "$(upft_json_arg "$UPFT_OUT" 1 name)" '"localhost"' "getent's getaddrinfo name is \"localhost\""
t_is "$(upft_json_arg "$UPFT_OUT" 1 service)" 'null' "its NULL service is a fault (null), not text"

upft_run -x libc.so.6 -D 'getaddrinfo nosuch'
t_is "$UPFT_RC" 2 "an unknown variable in libc exits 2"
t_like "$UPFT_ERR" "nosuch" "... naming the variable"

t_done
