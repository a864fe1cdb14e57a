#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# startup.sh - libdebuginfod and libmicrohttpd are loaded only when used: --version, -D and a
# trace session map neither (nor libcurl and gnutls, which they pull in: ~4.5 ms of CPU per
# run); --metrics loads libmicrohttpd; a library that cannot be loaded when it is needed is
# one error line naming it and dlerror()'s reason.
. "$(dirname "$0")/lib.sh"
upft_need_root

command -v gcc >/dev/null || t_bail "gcc not installed"
bin=$UPFT_TARGETS/c/orders-O0
[ -x "$bin" ] || t_bail "$bin not built (tests/targets/build.sh)"
heavy='lib(curl|curl-gnutls|gnutls|microhttpd|debuginfod)\.so'

# LD_DEBUG=files: every object the dynamic loader maps, on stderr
unset DEBUGINFOD_URLS
LD_DEBUG=files "$UPFRONT" --version >/dev/null 2>"$UPFT_TMP/ld"
t_like "$(cat "$UPFT_TMP/ld")" 'file=libc\.so\.6' "LD_DEBUG=files lists what is mapped"
t_unlike "$(cat "$UPFT_TMP/ld")" "$heavy" \
	"--version maps no libdebuginfod, libmicrohttpd, libcurl, gnutls"
LD_DEBUG=files "$UPFRONT" -x "$bin" -D 'process_order o->id' >/dev/null 2>"$UPFT_TMP/ld"
t_unlike "$(cat "$UPFT_TMP/ld")" "$heavy" "-D maps none of them"

# a trace session: its maps while it records
"$UPFRONT" --stdio -x "$bin" process_order -- sleep 30 >/dev/null 2>&1 &
pid=$!
if upft_wait_tracing "$pid"; then
	t_unlike "$(cat "/proc/$pid/maps")" "$heavy" "a trace session maps none of them"
else
	t_fail "the trace session records"
fi
kill -INT "$pid" 2>/dev/null
wait "$pid"
t_is "$?" 0 "... and ends with exit 0 on SIGINT"

# --metrics: libmicrohttpd is mapped once it serves
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$UPFRONT" --stdio --metrics "127.0.0.1:$port" -x "$bin" process_order -- sleep 30 \
	>/dev/null 2>&1 &
pid=$!
if upft_wait_tracing "$pid"; then
	t_like "$(cat "/proc/$pid/maps")" 'libmicrohttpd\.so' "--metrics maps libmicrohttpd"
	t_unlike "$(cat "/proc/$pid/maps")" 'lib(curl|debuginfod)' \
		"... and not libdebuginfod or libcurl"
else
	t_fail "the --metrics session records"
fi
kill -INT "$pid" 2>/dev/null
wait "$pid"
t_is "$?" 0 "... and ends with exit 0 on SIGINT"

# libraries that do not load: empty stand-ins under their sonames, first in the search path
mkdir -p "$UPFT_TMP/lib"
echo 'int upft_stand_in;' >"$UPFT_TMP/empty.c"
for so in libdebuginfod.so.1 libmicrohttpd.so.12; do
	gcc -shared -fPIC -o "$UPFT_TMP/lib/$so" "$UPFT_TMP/empty.c" || t_bail "cannot build $so"
done
gcc -O0 -o "$UPFT_TMP/nodebug" "$UPFT_SRCDIR/tests/targets/c/orders.c" ||
	t_bail "cannot build nodebug"

LD_LIBRARY_PATH=$UPFT_TMP/lib DEBUGINFOD_URLS=http://127.0.0.1:1 \
	upft_run -x "$UPFT_TMP/nodebug" -L process_order
t_is "$UPFT_RC" 2 "libdebuginfod does not load: no DWARF, exit 2"
t_is "$(printf '%s\n' "$UPFT_ERR" | wc -l)" 1 "... one line"
why='cannot load libdebuginfod\.so\.1: .*undefined symbol: debuginfod_'
t_like "$UPFT_ERR" "debuginfod http://127\\.0\\.0\\.1:1 \\($why" \
	"... naming the server, the library and dlerror()'s reason"

bash -c 'echo $$ >"$1"; shift; exec "$@"' sh "$UPFT_TMP/pid" env LD_LIBRARY_PATH="$UPFT_TMP/lib" \
	"$UPFRONT" --stdio --metrics "127.0.0.1:$port" -x "$bin" process_order -- true \
	>/dev/null 2>"$UPFT_TMP/err"
t_is "$?" 1 "libmicrohttpd does not load: --metrics exits 1"
t_like "$(cat "$UPFT_TMP/err")" \
	'^upfront: --metrics: cannot load libmicrohttpd\.so\.12: .*undefined symbol: MHD_' \
	"... one line naming the library and dlerror()'s reason"
t_is "$(cat "$UPFT_TMP/err" | wc -l)" 1 "... only that line"
pid=$(cat "$UPFT_TMP/pid")
t_is "$(ls -d "$UPFT_TRACEFS/instances/upfront_$pid" 2>/dev/null; \
	grep "upfront_$pid/" "$UPFT_TRACEFS/uprobe_events")" "" "... nothing left in tracefs"
t_done
