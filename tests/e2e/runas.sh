#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# runas.sh - who "-- CMD" runs as: under sudo (SUDO_UID, SUDO_GID, SUDO_USER) the user who ran
# sudo, with that user's groups and none of root's; -u USER picks one, -u root keeps root; bad
# SUDO_* values and unknown users are one error line; CMD inherits no file of upfront's; the
# UPFRONT_* knobs are checked before anything is installed
. "$(dirname "$0")/lib.sh"

upft_need_root
id nobody >/dev/null 2>&1 || t_bail "no user 'nobody'"
NOBODY_UID=$(id -u nobody)
NOBODY_GID=$(id -g nobody)

# a directory every user can enter: CMD may be someone else
D=$(mktemp -d /tmp/upft_runas.XXXXXX)
chmod 755 "$D"
trap 'rm -rf "$D"; upft_cleanup' EXIT
cat >"$D/who.c" <<'SRC'
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* the probed function: who we are, how many groups, how many files beyond 0, 1, 2 */
__attribute__((noinline)) int report(int uid, int gid, int ngroups, int group0, int nfds)
{
	return printf("who uid=%d gid=%d ngroups=%d group0=%d nfds=%d\n", uid, gid, ngroups,
		      group0, nfds);
}

int main(void)
{
	gid_t groups[64];
	int n = getgroups(64, groups), nfds = 0;
	DIR *dir = opendir("/proc/self/fd");
	struct dirent *de;

	while (dir && (de = readdir(dir)))
		nfds += atoi(de->d_name) > 2 && atoi(de->d_name) != dirfd(dir);
	report((int)getuid(), (int)getgid(), n, n > 0 ? (int)groups[0] : -1, nfds);
	return 0;
}
SRC
gcc -g -O0 -o "$D/who" "$D/who.c" || t_bail "gcc who.c"
chmod 755 "$D/who"
W=$D/who
P='report uid gid ngroups group0 nfds'

# who_line - the traced event of report()
who_event() {
	printf '%s\n' "$UPFT_OUT" | grep -E '^[0-9.]+ who/[0-9]+ report ' | sed 's/^[0-9.]* who\/[0-9]* report //'
}

# the files CMD has without upfront (the caller's, e.g. a test harness's): it gets those only
FDS=$("$W" | sed -n 's/.* nfds=//p')

# plain root: CMD runs as root
upft_run --stdio -x "$W" "$P" -- "$W"
t_is "$UPFT_RC" 0 "as root: exits 0"
t_like "$(who_event)" "^uid=0 gid=0 .* nfds=$FDS\$" "not under sudo: CMD runs as root, with none of upfront's files"

# under sudo: the user who ran sudo, that user's groups only
SUDO_UID=$NOBODY_UID SUDO_GID=$NOBODY_GID SUDO_USER=nobody upft_run --stdio -x "$W" "$P" -- "$W"
t_is "$UPFT_RC" 0 "under sudo: exits 0"
t_is "$(who_event)" "uid=$NOBODY_UID gid=$NOBODY_GID ngroups=1 group0=$NOBODY_GID nfds=$FDS" \
	"under sudo: CMD runs as SUDO_UID with SUDO_USER's groups, none of root's, no file of upfront's"
t_like "$UPFT_ERR" "^who uid=$NOBODY_UID " "... and is traced (its own output as that user)"
SUDO_UID=$NOBODY_UID SUDO_GID=$NOBODY_GID SUDO_USER=nobody upft_run -v --stdio -x "$W" "$P" -- "$W"
t_like "$UPFT_ERR" "running .*who as nobody \\(uid $NOBODY_UID, from SUDO_UID\\)" "-v says who CMD runs as"

# -u root keeps root; -u USER without sudo
SUDO_UID=$NOBODY_UID SUDO_GID=$NOBODY_GID SUDO_USER=nobody upft_run --stdio -u root -x "$W" "$P" -- "$W"
t_like "$(who_event)" "^uid=0 gid=0 " "-u root keeps root under sudo"
upft_run --stdio -u nobody -x "$W" "$P" -- "$W"
t_is "$(who_event)" "uid=$NOBODY_UID gid=$NOBODY_GID ngroups=1 group0=$NOBODY_GID nfds=$FDS" "-u nobody"
upft_run --stdio -u "$NOBODY_UID" -x "$W" "$P" -- "$W"
t_like "$(who_event)" "^uid=$NOBODY_UID " "-u UID"
SUDO_UID=0 SUDO_GID=0 SUDO_USER=root upft_run --stdio -x "$W" "$P" -- "$W"
t_like "$(who_event)" "^uid=0 gid=0 " "sudo from root (SUDO_UID=0): root"

# one error line, exit 2, nothing installed
one_error() {
	local desc=$1 want=$2
	if [ "$UPFT_RC" = 2 ] && [ "$UPFT_ERR" = "$want" ] && [ -z "$UPFT_OUT" ]; then
		t_pass "$desc"
	else
		t_fail "$desc" "rc $UPFT_RC" "stderr: $UPFT_ERR" "want:   $want"
	fi
}
upft_run -u nosuchuser_upft -x "$W" "$P" -- "$W"
one_error "-u of an unknown user" "upfront: -u: no user 'nosuchuser_upft' in the user database"
upft_run -u nobody -x "$W" -D "$P"
one_error "-u without a CMD" "upfront: -u USER names who runs '-- CMD'; there is no CMD (see upfront --help)"
SUDO_UID=abc upft_run -x "$W" "$P" -- "$W"
one_error "SUDO_UID=abc" "upfront: SUDO_UID must be a user id, not 'abc' (or run the command as someone with -u USER)"
SUDO_UID=$NOBODY_UID SUDO_GID=-1 upft_run -x "$W" "$P" -- "$W"
one_error "SUDO_GID=-1" "upfront: SUDO_GID must be a group id, not '-1' (or run the command as someone with -u USER)"
SUDO_UID=4294967295 upft_run -x "$W" "$P" -- "$W"
t_is "$UPFT_RC" 2 "SUDO_UID=4294967295 ((uid_t)-1) is refused"
# a user who cannot run the binary: the exec error names the user
chmod 700 "$W"
upft_run -u nobody -x "$W" "$P" -- "$W"
t_like "$UPFT_ERR" "^upfront: cannot run .*who as nobody: Permission denied$" "exec refused for the user: said, with the user"
t_unlike "$(cat "$UPFT_TRACEFS/uprobe_events")" "who:" "... and nothing is left installed"
chmod 755 "$W"

# UPFRONT_* knobs: checked at start, one line, exit 2, before anything is installed
knob() {
	local var=$1 val=$2 want=$3
	env "$var=$val" "$UPFRONT" --stdio -x "$W" "$P" -- "$W" >"$UPFT_TMP/out" 2>"$UPFT_TMP/err"
	UPFT_RC=$?
	UPFT_OUT=$(cat "$UPFT_TMP/out")
	UPFT_ERR=$(cat "$UPFT_TMP/err")
	one_error "$var=$(printf '%q' "$val")" "$want"
}
knob UPFRONT_QUEUE_PAGES -1 "upfront: UPFRONT_QUEUE_PAGES wants a number of pages per CPU from 2 to 262144, not '-1' (see ENVIRONMENT in upfront(1))"
knob UPFRONT_QUEUE_PAGES 4294967297 "upfront: UPFRONT_QUEUE_PAGES wants a number of pages per CPU from 2 to 262144, not '4294967297' (see ENVIRONMENT in upfront(1))"
knob UPFRONT_BUFFER_KB abc "upfront: UPFRONT_BUFFER_KB wants a per-CPU buffer size in KiB from 4 to 1048576, not 'abc' (see ENVIRONMENT in upfront(1))"
knob UPFRONT_BUFFER_KB 0 "upfront: UPFRONT_BUFFER_KB wants a per-CPU buffer size in KiB from 4 to 1048576, not '0' (see ENVIRONMENT in upfront(1))"
knob UPFRONT_RING 5 "upfront: UPFRONT_RING wants a number of events from 100 to 100000000, not '5' (see ENVIRONMENT in upfront(1))"
knob UPFRONT_RING $'1\n2' "upfront: UPFRONT_RING wants a number of events from 100 to 100000000, not '1\\n2' (see ENVIRONMENT in upfront(1))"
knob UPFRONT_INDEX foo "upfront: UPFRONT_INDEX wants 'libdw' or 'raw', not 'foo' (see ENVIRONMENT in upfront(1))"
knob UPFRONT_PLACEMENT fancy "upfront: UPFRONT_PLACEMENT wants 'plain', not 'fancy' (see ENVIRONMENT in upfront(1))"
UPFRONT_QUEUE_PAGES=4 UPFRONT_BUFFER_KB=64 upft_run --stdio -x "$W" "$P" -- "$W"
t_is "$UPFT_RC" 0 "valid knobs still work"

t_done
