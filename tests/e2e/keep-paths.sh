#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# keep-paths.sh - probes that outlive upfront (-a, --keep) give the kernel the binary's path,
# which the kernel looks up itself after upfront checked the file: refused when anyone but
# root (and the sudo user) can change what the path names (a directory on it, or the file);
# a file swapped in at the path between the check and the kernel's lookup (shim-race.c plays
# the other process, at that point exactly) has its probes removed again, exit 2. Trace mode
# without --keep and -D are not affected (the kernel gets /proc/PID/fd/N, or nothing).
. "$(dirname "$0")/lib.sh"
upft_need_root

src=$UPFT_TARGETS/c/orders-O2
[ -x "$src" ] || t_bail "test targets not built (tests/targets/build.sh)"
getent passwd 65534 >/dev/null || t_bail "no user 65534 (nobody)"
shim=$UPFT_TMP/shim-race.so
gcc -shared -fPIC -O2 -o "$shim" "$UPFT_SRCDIR/tests/e2e/shim-race.c" -ldl ||
	t_bail "cannot build shim-race.c"
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0
D=$UPFT_TMP/k
mkdir -m 0755 "$D"

# place DIR MODE OWNER [FILE-OWNER] - a directory $D/DIR with a copy of the target in it
place() {
	mkdir -p "$D/$1"
	cp "$src" "$D/$1/orders"
	chown "${4:-0}" "$D/$1/orders"
	chmod "$2" "$D/$1"
	chown "$3" "$D/$1"
}

# the probes on files under $D (-a's in $UPFT_GROUP, --keep's in upfront_PID), and the
# instance and events of the last run's session (upfront_PID)
installed() {
	local n pid
	n=$(grep -c " $D/" "$UPFT_TRACEFS/uprobe_events")
	pid=$(cat "$UPFT_TMP/pid" 2>/dev/null)
	if [ -n "$pid" ]; then
		[ -d "$UPFT_TRACEFS/instances/upfront_$pid" ] && n=$((n + 1))
		n=$((n + $(grep -c "^[pr]:upfront_$pid/" "$UPFT_TRACEFS/uprobe_events")))
	fi
	echo "$n"
}

# upft_run, with upfront's pid in $UPFT_TMP/pid (its session is upfront_PID)
run_pid() {
	rm -f "$UPFT_TMP/pid"
	timeout -s INT -k 5 60 sh -c 'echo $$ >"$1"; shift; exec "$@"' sh "$UPFT_TMP/pid" \
		"$UPFRONT" "$@" >"$UPFT_TMP/out" 2>"$UPFT_TMP/err" </dev/null
	UPFT_RC=$?
	UPFT_OUT=$(cat "$UPFT_TMP/out")
	UPFT_ERR=$(cat "$UPFT_TMP/err")
}

# refused DESC ERE ARGS... - upfront ARGS: one line matching ERE, exit 2, nothing installed
refused() {
	local desc=$1 ere=$2
	shift 2
	case " $* " in *" -a "*) set -- -g "$UPFT_GROUP" "$@" ;; esac	# removed by the trap
	run_pid "$@"
	t_is "$UPFT_RC" 2 "$desc: exit 2"
	t_like "$UPFT_ERR" "$ere" "$desc: the reason"
	t_is "$(printf '%s\n' "$UPFT_ERR" | wc -l)" 1 "$desc: one line"
	t_is "$(installed)" 0 "$desc: nothing installed"
}

# added DESC ARGS... - upfront -a ARGS works; its probe is removed again
added() {
	local desc=$1
	shift
	upft_run -g "$UPFT_GROUP" "$@"
	t_is "$UPFT_RC/$(installed)" 0/1 "$desc: added" || t_diag "$UPFT_ERR"
	"$UPFRONT" -d "$UPFT_GROUP:*" >/dev/null 2>&1
}

P='process_order o->id'
why='who could change what it names before the kernel looks it up'
fix='copy the binary to a directory only root can write, or trace it live'
R='^upfront: refusing .*'
place user 0755 65534
refused "-a, a directory of another user" \
	"^upfront: refusing to give the kernel the path $D/user/orders: $D/user belongs to uid \
65534, $why; $fix" \
	-x "$D/user/orders" -a "$P"
refused "--keep, a directory of another user" "$R $D/user belongs to uid 65534" \
	--json --max-events 1 --keep -x "$D/user/orders" "$P" -- "$D/user/orders"
SUDO_UID=65534 added "-a, a directory of the sudo user" -x "$D/user/orders" -a "$P"
upft_run --json --max-events 1 -x "$D/user/orders" "$P" -- "$D/user/orders"
t_is "$UPFT_RC/$(upft_json_count "$UPFT_OUT")" 0/1 "trace mode without --keep: not affected"
upft_run -x "$D/user/orders" -D "$P"
t_is "$UPFT_RC" 0 "-D: not affected"

place world 0777 0
refused "-a, a directory anyone can write" "$R: $D/world is writable by everyone," \
	-x "$D/world/orders" -a "$P"
place sticky 1777 0
added "-a, a sticky directory anyone can write, the file root's" -x "$D/sticky/orders" -a "$P"
place sticky-user 1777 0 65534
refused "-a, a sticky directory, the file another user's" \
	"$R: $D/sticky-user is writable by everyone," -x "$D/sticky-user/orders" -a "$P"
place file-user 0755 0 65534
refused "-a, the file another user's" \
	"$R: $D/file-user/orders belongs to uid 65534," -x "$D/file-user/orders" -a "$P"
place file-world 0755 0
chmod 0777 "$D/file-world/orders"
refused "-a, the file writable by anyone" \
	"$R: $D/file-world/orders is writable by everyone," -x "$D/file-world/orders" -a "$P"
place group 0775 0:65534
refused "-a, a directory writable by a group with another user in it" \
	"$R: $D/group is writable by group 65534, which uid [0-9]+ is in," \
	-x "$D/group/orders" -a "$P"
place nested 0755 0
mkdir -p "$D/up/inner"
mv "$D/nested/orders" "$D/up/inner/orders"
chown 65534 "$D/up"
refused "-a, a directory further up another user's" "$R: $D/up belongs to uid 65534," \
	-x "$D/up/inner/orders" -a "$P"
# a POSIX ACL granting uid 65534 write (written as the kernel's xattr: setfacl may be missing)
place acl 0755 0
if python3 -c '
import os, struct, sys
n = 0xffffffff
e = [(1, 7, n), (2, 7, 65534), (4, 5, n), (16, 7, n), (32, 5, n)]
os.setxattr(sys.argv[1], "system.posix_acl_access",
	    struct.pack("<I", 2) + b"".join(struct.pack("<HHI", *x) for x in e))' \
	"$D/acl" 2>/dev/null; then
	refused "-a, a directory whose ACL lets another user write" \
		"$R: $D/acl is writable by uid 65534 through its ACL," -x "$D/acl/orders" -a "$P"
else
	t_fail "the file system of $D takes no POSIX ACL (a prerequisite of this test)"
fi
place root 0755 0
added "-a, root's directories and file" -x "$D/root/orders" -a "$P"

# the race itself: another file renamed over the path after upfront's checks, just before the
# write; the kernel probes that one: upfront sees it after the write and removes the probes
cp "$UPFT_TARGETS/c/orders-O0" "$D/root/other"
UPFT_SHIM_SWAP=$D/root/other:$D/root/orders LD_PRELOAD=$shim \
	refused "-a, the file swapped before the kernel's lookup" \
	"^upfront: $D/root/orders is no longer the file upfront read" -x "$D/root/orders" -a "$P"
t_is "$(ls "$D/root")" orders "... the shim swapped it"
cp "$src" "$D/root/orders"
cp "$UPFT_TARGETS/c/orders-O0" "$D/root/other"
UPFT_SHIM_SWAP=$D/root/other:$D/root/orders LD_PRELOAD=$shim \
	refused "--keep, the file swapped before the kernel's lookup" \
	"^upfront: $D/root/orders is no longer the file upfront read" \
	--json --max-events 1 --keep -x "$D/root/orders" "$P" -- "$src"

# a --keep session that fails before it traces keeps nothing (it kept its instance and
# events when the kernel rejected the filter; a field the probe lacks is refused before)
refused "--keep, a filter the kernel rejects" \
	"^upfront: the kernel rejected the filter 'id == \"x\"'" \
	--json --max-events 1 --keep --filter 'id == "x"' -x "$D/root/orders" "$P" -- "$src"

t_done
