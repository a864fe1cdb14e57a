#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# cache.sh - -F's inlined-only functions kept by build-id for the next run (src/bidcache.c):
# the second run prints exactly what an uncached run prints, from the cache; a binary with the
# same build-id but other contents (a stripped copy, a touched one) is not answered from it;
# a cache file or directory someone else could have written is not read, a symbolic link is
# not followed, nothing is made under a directory others can write; UPFRONT_CACHE=off turns
# it off
. "$(dirname "$0")/lib.sh"

upft_need_root
B=$UPFT_TARGETS/cpp/mailbox-O2
upft_need_targets "$B"
export XDG_CACHE_HOME=$UPFT_TMP/xdg
C=$XDG_CACHE_HOME/upfront
BID=$(readelf -n "$B" | sed -n 's/.*Build ID: *//p')
F=$C/$BID.funcs

UPFRONT_CACHE=off upft_run -x "$B" -F
REF=$UPFT_OUT
t_like "$REF" $'\t\\(inlined\\)$' "the target has inlined-only functions"
UPFRONT_CACHE=off upft_run -x "$B" -F 'Mail*'
REF_GLOB=$UPFT_OUT
test ! -e "$F"
t_ok $? "UPFRONT_CACHE=off writes nothing"

upft_run -v -x "$B" -F
t_is "$UPFT_OUT" "$REF" "first run: the same list"
t_like "$UPFT_ERR" "cache: funcs written to the cache \($BID.funcs\)" "first run: written, by build-id"
t_is "$(stat -c '%a %U' "$C" "$F" | tr '\n' ' ')" "700 root 600 root " \
	"the directory and the file are the user's alone"
upft_run -v -x "$B" -F
t_is "$UPFT_OUT" "$REF" "second run: the same list"
t_like "$UPFT_ERR" "cache: funcs from the cache" "second run: from the cache"
t_unlike "$UPFT_ERR" "debuginfo: DWARF of" "second run: the DWARF is not opened"
upft_run -v -x "$B" -F 'Mail*'
t_is "$UPFT_OUT" "$REF_GLOB" "a glob over the cached list: the same as uncached"

# the same build-id, other contents: a stripped copy has no inlined-only function
cp "$B" "$UPFT_TMP/copy"
objcopy --strip-debug "$UPFT_TMP/copy" "$UPFT_TMP/stripped"
UPFRONT_CACHE=off upft_run -x "$UPFT_TMP/stripped" -F
SREF=$UPFT_OUT
upft_run -v -x "$UPFT_TMP/stripped" -F
t_is "$UPFT_OUT" "$SREF" "a stripped copy (same build-id) lists what it has"
t_unlike "$UPFT_OUT" $'\t\\(inlined\\)' "a stripped copy: no inlined-only function from the cache"
t_like "$UPFT_ERR" "cache file $BID.funcs is stale" "a stripped copy: the cache file is stale"
# a copy with another mtime: recomputed and rewritten
upft_run -v -x "$UPFT_TMP/copy" -F
t_is "$UPFT_OUT" "$REF" "a copy with another mtime: the same list"
t_like "$UPFT_ERR" "written to the cache" "a copy with another mtime: recomputed"

# a file with a name the binary does not have, to see whether it is believed
upft_run -x "$B" -F	# rewritten for $B
printf 'zz_planted\n' >>"$F"
upft_run -x "$B" -F 'zz_*'
t_is "$UPFT_OUT" $'zz_planted\t(inlined)' "the user's own file is believed (what makes the rest a test)"
chown 65534 "$F"
upft_run -v -x "$B" -F 'zz_*'
t_is "$UPFT_OUT" "" "a cache file owned by another user is not read"
t_like "$UPFT_ERR" "not a file of the user's alone" "another user's file: -v says why"
upft_run -x "$B" -F	# replaced by the user's own (rename over it)
t_is "$(stat -c %U "$F")" root "another user's file is replaced"
printf 'zz_planted\n' >>"$F"
chmod 0620 "$F"
upft_run -x "$B" -F 'zz_*'
t_is "$UPFT_OUT" "" "a group-writable cache file is not read"
chmod 0600 "$F"
mv "$F" "$UPFT_TMP/planted"
ln -s "$UPFT_TMP/planted" "$F"
upft_run -x "$B" -F 'zz_*'
t_is "$UPFT_OUT" "" "a symbolic link in the cache is not followed"
rm -f "$F"
cp "$UPFT_TMP/planted" "$F"
chmod 0770 "$C"
upft_run -v -x "$B" -F 'zz_*'
t_is "$UPFT_OUT" "" "a cache directory others can write is not used"
t_like "$UPFT_ERR" "cache $C not used" "a group-writable directory: -v says why"
chmod 0700 "$C"
mkdir -m 0777 "$UPFT_TMP/open"
XDG_CACHE_HOME=$UPFT_TMP/open upft_run -v -x "$B" -F
t_is "$UPFT_OUT" "$REF" "under a world-writable directory: the same list"
t_like "$UPFT_ERR" "not used" "under a world-writable directory: no cache (-v says why)"
XDG_CACHE_HOME=$UPFT_TMP/open/sub upft_run -x "$B" -F
t_is "$UPFT_OUT" "$REF" "a cache directory to make under a world-writable one: the same list"
test ! -e "$UPFT_TMP/open/sub"
t_ok $? "nothing is made under a world-writable directory"
UPFRONT_CACHE=off upft_run -x "$B" -F 'zz_*'
t_is "$UPFT_OUT" "" "UPFRONT_CACHE=off: the cache is not read"
t_done
