#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# sudo-output.sh - under sudo (root, SUDO_UID set) -o FILE is opened as the sudo user: a
# symbolic link the user put in their directory is followed with the user's rights, never
# root's (root's file was truncated), a new file belongs to the user, and it is 0600 (events
# hold the traced processes' data; it was root:root 0644, readable by every local user).
. "$(dirname "$0")/lib.sh"
upft_need_root
getent passwd 65534 >/dev/null || t_bail "no user 65534 (nobody)"

C=$UPFT_TARGETS/c/calls-O2
[ -x "$C" ] || t_bail "targets not built (tests/targets/build.sh $UPFT_TARGETS)"
# a directory uid 65534 can reach (UPFT_TMP is root's 0700)
D=$(mktemp -d /tmp/upft_sudo_o.XXXXXX) || t_bail "mktemp"
trap 'rm -rf "$D"; upft_cleanup' EXIT
chmod 0755 "$D"
mkdir "$D/user" && chown 65534:65534 "$D/user"
echo precious >"$D/rootfile" && chmod 0644 "$D/rootfile"

# (-u root: the command runs as root, whose tree this clone may be in; -o is the user's all
# the same)
# the user's symbolic link to root's file
setpriv --reuid=65534 --regid=65534 --clear-groups ln -s "$D/rootfile" "$D/user/ev"
SUDO_UID=65534 SUDO_GID=65534 upft_run -u root --json -o "$D/user/ev" -x "$C" 'tick i' -- "$C" exit 0
t_is "$UPFT_RC" 2 "a link to root's file: refused, exit 2"
t_like "$UPFT_ERR" "^upfront: cannot write -o $D/user/ev as [a-z0-9]+: Permission denied\$" \
	"a link to root's file: one line, as the user"
t_is "$(cat "$D/rootfile")" precious "root's file is untouched"

# a new file: the user's, 0600, with the events
SUDO_UID=65534 SUDO_GID=65534 upft_run -u root --json -o "$D/user/new.json" -x "$C" 'tick i' -- "$C" exit 0
t_is "$UPFT_RC" 0 "a new file: exit 0"
t_is "$(stat -c '%u:%g %a' "$D/user/new.json")" "65534:65534 600" "a new file: the user's, 0600"
t_like "$(cat "$D/user/new.json")" '"probe":"tick","args":\{"i":0\}' "a new file: the event in it"

# a directory the user cannot write: refused, nothing created by root
SUDO_UID=65534 SUDO_GID=65534 upft_run -u root --json -o "$D/made-by-root.json" -x "$C" 'tick i' -- "$C" exit 0
t_is "$UPFT_RC" 2 "root's directory: refused for the user, exit 2"
t_is "$(ls "$D/made-by-root.json" 2>/dev/null)" "" "root's directory: no file made"

# without sudo, root writes as root (0600)
upft_run --json -o "$D/plain.json" -x "$C" 'tick i' -- "$C" exit 0
t_is "$(stat -c '%u %a' "$D/plain.json")" "0 600" "no sudo: root's file, 0600"
t_done
