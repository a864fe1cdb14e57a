#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# containers.sh - with -p, -x names the files the process sees in its own mount namespace
# (a container): an absolute path under /proc/PID/root, a soname as the library it has
# mapped. The target runs in a mount namespace of its own (unshare -m) from a tmpfs the host
# does not see, with its own copy of libc bind-mounted over the host's path. Before: "no such
# binary" and 0 events (the host's libc was probed).
. "$(dirname "$0")/lib.sh"
upft_need_root

C=$UPFT_TARGETS/c/calls-O2
[ -x "$C" ] || t_bail "targets not built (tests/targets/build.sh $UPFT_TARGETS)"
command -v unshare >/dev/null || t_fail "unshare (util-linux) is not installed"

T=$UPFT_TMP/ctr
mkdir -p "$T/app"
LIBC=$(readlink -f /lib/$UPFT_MULTIARCH/libc.so.6)
cp "$LIBC" "$T/libc.so.6"
cp "$C" "$T/calls.img"
unshare -m sh -c "mount -t tmpfs none '$T/app' && cp '$T/calls.img' '$T/app/calls' &&
	mount --bind '$T/libc.so.6' '$LIBC' && exec '$T/app/calls' loop 3 20" \
	>/dev/null 2>&1 </dev/null &
P=$!
ctr_cleanup() {
	kill -9 "$P" 2>/dev/null
	upft_cleanup
}
trap ctr_cleanup EXIT
upft_until 10 sh -c "test \"\$(readlink /proc/$P/exe)\" = '$T/app/calls'"
t_ok $? "the target runs in its own mount namespace, from $T/app/calls"
[ ! -e "$T/app/calls" ]
t_ok $? "... a file the host does not see"
t_is "$(stat -L -c %i "/proc/$P/root$LIBC")" "$(stat -c %i "$T/libc.so.6")" \
	"... with its own libc at the host's path"

# 1. an absolute path in the container
upft_run -v --json --duration 1 -p "$P" -x "$T/app/calls" 'walk n'
t_is "$UPFT_RC" 0 "-x PATH in the container: exit 0"
t_like "$UPFT_ERR" "-x $T/app/calls: in the mount namespace of process $P: /proc/$P/root$T/app/calls" \
	"-v: says where the file was found"
n=$(printf '%s\n' "$UPFT_OUT" | grep -c '"probe":"walk","args":{"n":3}')
[ "$n" -gt 0 ]
t_ok $? "-x PATH in the container: its calls are seen ($n)"

# libc_probed WHAT - -x libc.so.6 with -p $P is the library the process has mapped, at
# /proc/$P/root$LIBC (its copy, not the host's), and its calls are seen
libc_probed() {
	upft_run -v --json --duration 1 -p "$P" -x libc.so.6 'sleep=__nanosleep'
	t_is "$UPFT_RC" 0 "$1: -x libc.so.6: exit 0"
	t_like "$UPFT_ERR" "-x libc.so.6: in the mount namespace of process $P: /proc/$P/root$LIBC\$" \
		"$1: -v: the library the process has mapped"
	n=$(printf '%s\n' "$UPFT_OUT" | grep -c '"probe":"sleep"')
	[ "$n" -gt 0 ]
	t_ok $? "$1: -x libc.so.6: its libc is probed: its calls are seen ($n)"
}

# 2. a soname: the library the process has mapped (its copy, not the host's)
libc_probed container

# 3. --stack and :sym name what the process runs: the files of its own namespace
upft_run --stdio --stack --max-events 1 -p "$P" -x "$T/app/calls" 'walk n'
t_like "$UPFT_OUT" "^	 +[0-9a-f]+ main\\+0x[0-9a-f]+ \\(/proc/$P/root$T/app/calls\\)\$" \
	"--stack: the caller named from the container's file"
# the return address at the entry: on the stack's top on x86-64, in the link register x30 on
# arm64 ($stack0 there is the caller's frame: "ret=0xffffe352ede0" in the arm64 guest)
ra='$stack0'
[ "$UPFT_ARCH" = arm64 ] && ra=%x30
upft_run --stdio --max-events 1 -p "$P" -x libc.so.6 "sleep=__nanosleep ret=$ra:sym"
t_like "$UPFT_OUT" ' sleep ret=main\+0x[0-9a-f]+$' ":sym: the return address named in the container's program"

# 4. the process exits: the session says so and ends
"$UPFRONT" --stdio -p "$P" -x "$T/app/calls" 'walk n' >"$UPFT_TMP/x.out" 2>"$UPFT_TMP/x.err" </dev/null &
U=$!
upft_wait_tracing "$U"
kill "$P"
upft_until 10 sh -c "! kill -0 $U 2>/dev/null"
wait "$U"
t_is "$?" 0 "the container's process exits: upfront exits 0"
t_like "$(cat "$UPFT_TMP/x.err")" "^upfront: the traced process has exited \\(pid $P\\)\$" \
	"... and says so"

# 5. a process chrooted inside its own mount namespace (unshare -m, then chroot; runc
#    --no-pivot): its maps name its files from the namespace's root ($T/root/usr/lib/...),
#    /proc/PID/root is $T/root. Before: "-x libc.so.6" was looked for at
#    /proc/PID/root$T/root/... and not found
mkdir -p "$T/root"
unshare -m sh -c "mount --rbind / '$T/root' && exec chroot '$T/root' '$C' loop 3 20" \
	>/dev/null 2>&1 </dev/null &
P=$!
upft_until 10 sh -c "test \"\$(readlink /proc/$P/root)\" = '$T/root' &&
	grep -q '$T/root.*/libc' /proc/$P/maps"
t_ok $? "chrooted in its namespace: its maps name its files under $T/root"
libc_probed chrooted
upft_run --stdio --stack --max-events 1 -p "$P" -x "$C" 'walk n'
t_like "$UPFT_OUT" "^	 +[0-9a-f]+ main\\+0x[0-9a-f]+ \\(/proc/$P/root$C\\)\$" \
	"chrooted: --stack: the caller named from the process's own root"
kill -9 "$P" 2>/dev/null
wait "$P" 2>/dev/null

t_done
