#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# sudo-source.sh - under sudo, what root does for the user it does with the user's rights:
# -L reads source files as the sudo user (a user-built binary whose DWARF names a file only
# root may read got it printed), and libdebuginfod's cache is kept out of the user's
# directories (DEBUGINFOD_CACHE_PATH or HOME kept from the user's environment had root
# create files through the user's symbolic links).
. "$(dirname "$0")/lib.sh"
upft_need_root
getent passwd 65534 >/dev/null || t_bail "no user 65534 (nobody)"
command -v gcc >/dev/null || t_bail "gcc is not installed"

D=$(mktemp -d /tmp/upft_sudo_src.XXXXXX) || t_bail "mktemp"
trap 'rm -rf "$D"; upft_cleanup' EXIT
chmod 0755 "$D"
mkdir "$D/user" "$D/rootdir" && chown 65534:65534 "$D/user"
printf 'TOPSECRET line one\nTOPSECRET line two\nTOPSECRET three\nfour\nfive\n' >"$D/secret"
chmod 0600 "$D/secret"
asuser() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }

# the user's program, whose line table names root's file as its source
asuser sh -c "printf '%s\n' '#line 1 \"$D/secret\"' 'int leak(int a)' '{' '	return a + 1;' '}' \
	'int main(void) { return leak(1) - 2; }' >'$D/user/leak.c' &&
	cd '$D/user' && gcc -g -O0 -o leak leak.c" || t_bail "cannot build the user's program"
asuser sh -c "printf '/* mine */\nint own(int a)\n{\n	return a;\n}\nint main(void) { return own(0); }\n' \
	>'$D/user/own.c' && cd '$D/user' && gcc -g -O0 -o own own.c" || t_bail "cannot build own.c"

SUDO_UID=65534 SUDO_GID=65534 upft_run -x "$D/user/leak" -L leak
t_unlike "$UPFT_OUT$UPFT_ERR" TOPSECRET "-L under sudo: root's file is not printed"
t_is "$UPFT_RC" 2 "-L under sudo: refused, exit 2"
t_like "$UPFT_ERR" '^upfront: cannot read the source file: Permission denied' \
	"-L under sudo: the user cannot read it, and says so"
SUDO_UID=65534 SUDO_GID=65534 upft_run -x "$D/user/own" -L own
t_is "$UPFT_RC" 0 "-L under sudo: the user's own source is read"
t_like "$UPFT_OUT" 'return a;' "-L under sudo: its lines are shown"
upft_run -x "$D/user/leak" -L leak
t_like "$UPFT_OUT" TOPSECRET "-L as root itself (no sudo): root's rights"

# debuginfod's cache: the user's link to a root directory, and the user's HOME
ln -s "$D/rootdir" "$D/user/cache" && chown -h 65534:65534 "$D/user/cache"
SUDO_UID=65534 SUDO_GID=65534 DEBUGINFOD_URLS=http://127.0.0.1:9 \
	DEBUGINFOD_CACHE_PATH="$D/user/cache" upft_run -x "$UPFT_TARGETS/c/orders-stripped" -V process_order
t_like "$UPFT_ERR" 'debuginfod http://127.0.0.1:9' "debuginfod was asked"
t_is "$(ls -A "$D/rootdir")" "" "DEBUGINFOD_CACHE_PATH through the user's link: nothing made by root"
SUDO_UID=65534 SUDO_GID=65534 DEBUGINFOD_URLS=http://127.0.0.1:9 HOME="$D/user" \
	upft_run -x "$UPFT_TARGETS/c/orders-stripped" -V process_order
t_is "$(find "$D/user" -user 0 | head -3)" "" "HOME of the user: nothing of root's made in it"
t_done
