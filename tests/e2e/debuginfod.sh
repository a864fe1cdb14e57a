#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# debuginfod.sh - a stripped target whose DWARF only a local debuginfod server has: found
# when DEBUGINFOD_URLS is set (and only then), cached in the client's standard cache,
# progress on a terminal, errors naming the server, -L sources from /buildid/ID/source/PATH.
# The server runs on a free port, is asked only at 127.0.0.1, and is stopped by the trap.
. "$(dirname "$0")/lib.sh"
upft_need_root

command -v debuginfod >/dev/null || t_bail "debuginfod not installed (apt-get install debuginfod)"
command -v script >/dev/null || t_bail "script not installed (bsdutils)"
command -v unshare >/dev/null || t_bail "unshare not installed (util-linux)"
command -v gcc >/dev/null || t_bail "gcc not installed"

dir=$UPFT_TMP
mkdir -p "$dir/src" "$dir/srv" "$dir/cache"
cp "$UPFT_SRCDIR/tests/targets/c/orders.c" "$dir/src/"
(cd "$dir/src" && gcc -g -O0 -o "$dir/prog" orders.c) || t_bail "cannot build the target"
objcopy --only-keep-debug "$dir/prog" "$dir/srv/prog.debug"
strip --strip-debug -o "$dir/prog-stripped" "$dir/prog"
gcc -O0 -o "$dir/nodebug" "$dir/src/orders.c"	# no DWARF anywhere
bid=$(readelf -n "$dir/prog-stripped" | sed -n 's/.*Build ID: //p')

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
debuginfod -F -p "$port" -d "$dir/db.sqlite" -t 0 -g 0 "$dir/srv" >"$dir/server.log" 2>&1 &
server=$!
stop_server() {
	[ -n "${server:-}" ] && kill "$server" 2>/dev/null && wait "$server" 2>/dev/null
	server=
}
trap 'stop_server; upft_cleanup' EXIT
trap 'stop_server; upft_on_signal' INT TERM

url=http://127.0.0.1:$port
# ready when it serves the debuginfo it scanned (a few seconds at most)
for _ in $(seq 100); do
	python3 -c 'import sys, urllib.request; urllib.request.urlopen(sys.argv[1], timeout=2)' \
		"$url/buildid/$bid/debuginfo" 2>/dev/null && break
	sleep 0.2
done
python3 -c 'import sys, urllib.request; urllib.request.urlopen(sys.argv[1], timeout=2)' \
	"$url/buildid/$bid/debuginfo" 2>/dev/null || t_bail "debuginfod did not serve $bid (see $dir/server.log)"

export DEBUGINFOD_CACHE_PATH=$dir/cache
want=$("$UPFRONT" -x "$dir/prog" -D 'process_order o->id o->customer->name' | sed -n 's/^p:[^ ]* [^ ]* //p')

# without DEBUGINFOD_URLS nothing is asked
unset DEBUGINFOD_URLS
upft_run -x "$dir/prog-stripped" -L process_order
t_is "$UPFT_RC" 2 "no DEBUGINFOD_URLS: the stripped target has no DWARF"
t_unlike "$UPFT_ERR" debuginfod "... and no server is named"
t_is "$(ls "$dir/cache" | grep -c "$bid")" 0 "... nothing was downloaded"

export DEBUGINFOD_URLS=$url
upft_run -x "$dir/prog-stripped" -D 'process_order o->id o->customer->name'
t_is "$UPFT_RC" 0 "DEBUGINFOD_URLS=$url: -D on the stripped target exits 0"
t_is "$(printf '%s\n' "$UPFT_OUT" | sed -n 's/^p:[^ ]* [^ ]* //p')" "$want" \
	"... the same fetchargs as with the unstripped binary"
t_unlike "$UPFT_ERR" 'downloading' "... no progress line when stderr is not a terminal"
t_is "$(ls "$dir/cache/$bid" 2>/dev/null)" "debuginfo" "... the download is in the client's cache (\$DEBUGINFOD_CACHE_PATH/ID/debuginfo)"

upft_run --stdio -x "$dir/prog-stripped" 'process_order o->id name=o->customer->name:string' -- "$dir/prog-stripped"
t_like "$UPFT_OUT" ' process_order id=101 name="alice"$' "tracing the stripped target reads values through the downloaded DWARF"

# a terminal sees the download's progress (a fresh cache, so it downloads again)
script -qc "DEBUGINFOD_CACHE_PATH=$dir/cache2 $UPFRONT -x $dir/prog-stripped -D process_order" \
	/dev/null >"$dir/tty.out" 2>&1
tty=$(tr '\r' '\n' <"$dir/tty.out" | sed 's/\x1b\[K//g')
t_like "$tty" "^upfront: downloading debuginfo of prog-stripped from $url" \
	"on a terminal the download shows its progress, naming the server"
t_like "$tty" '^p:probe_prog/process_order ' "... then the definition"

# -L: the source file is not on disk here (a private tmpfs hides it); the server has it
upft_src() {
	unshare -m sh -c 'mount -t tmpfs none "$1" && shift && exec "$@"' sh "$dir/src" "$@"
}
out=$(upft_src "$UPFRONT" -x "$dir/prog-stripped" -L process_order 2>&1)
t_like "$out" "^<process_order@$dir/src/orders.c:0>\$" "-L with the source hidden: perf's header"
t_like "$out" 'int process_order\(struct order \*o\)' "... the source lines, from $url/buildid/ID/source/..."
t_like "$(ls "$dir/cache/$bid")" '^source' "... cached as a source## file"
out=$(DEBUGINFOD_URLS= upft_src "$UPFRONT" -x "$dir/prog" -L process_order 2>&1)
t_like "$out" 'cannot read the source file' "... without DEBUGINFOD_URLS the hidden source cannot be read"

# failures name the server and say why
upft_run -x "$dir/nodebug" -L process_order
t_is "$UPFT_RC" 2 "a binary the server does not know: exit 2"
t_like "$UPFT_ERR" "no debug information in nodebug \\(looked in: .*, debuginfod $url \\(not found\\)\\)" \
	"... the error names the server and says it does not have it"
stop_server
upft_run -x "$dir/prog-stripped" -D 'process_order o->id o->customer->name'
t_is "$(printf '%s\n' "$UPFT_OUT" | sed -n 's/^p:[^ ]* [^ ]* //p')" "$want" \
	"with the server stopped the cached debuginfo is used"
DEBUGINFOD_CACHE_PATH=$dir/cache3 upft_run -x "$dir/prog-stripped" -L process_order
t_like "$UPFT_ERR" "debuginfod $url \\(cannot connect: Connection refused\\)" \
	"with the server stopped and nothing cached: the error names the server and the failure"
t_done
