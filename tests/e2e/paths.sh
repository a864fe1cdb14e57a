#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# paths.sh - a binary's path never goes raw into uprobe_events. -D and -a print or write it:
# a path with a newline (a second command), a blank (splits PATH:OFFSET), a '#' (a comment),
# byte 0xa0 (a blank to the kernel: UTF-8 'à' is c3 a0) or a control byte is refused with one
# line. A trace session gives the kernel /proc/PID/fd/N of the file upfront opened and
# checked: any path works, a file swapped in at the path afterwards is not probed, and -l
# shows the file's path while the session lives.
. "$(dirname "$0")/lib.sh"
upft_need_root

# the trap also removes what a broken -a would have added, whatever its group
paths_cleanup() {
	local l
	grep -aE "^[pr]:[^/]*/upft_paths_$$ " "$UPFT_TRACEFS/uprobe_events" 2>/dev/null |
		while read -r l _; do
			echo "-:${l#*:}" >>"$UPFT_TRACEFS/uprobe_events"
		done
	upft_cleanup
}
trap paths_cleanup EXIT

src=$UPFT_TARGETS/c/orders-O0
[ -x "$src" ] || t_bail "$src not built (tests/targets/build.sh)"
D=$UPFT_TMP

# the dir names: a second command in our group, a blank, a '#', a tab, 0xa0, ESC
evil=$'A:0x1000\np:'"$UPFT_GROUP"'/evil'
names=("$evil" 'has blank' 'has#hash' $'tab\there' $'\xc3\xa0la' $'esc\x1b[31m')
descs=(newline blank '#' tab 'byte 0xa0' 'ESC')
whats=('a newline' 'a blank' "a '#'" 'a tab' 'byte 0xa0 \(a blank to the kernel\)'
	'control character 0x1b')

for i in "${!names[@]}"; do
	dir=$D/${names[$i]}
	mkdir -p "$dir" && cp "$src" "$dir/orders" || t_bail "cannot make $dir"
	desc=${descs[$i]}

	upft_run -x "$dir/orders" -D 'process_order o->id'
	t_is "$UPFT_RC" 2 "-D, a path with a $desc: exit 2"
	t_like "$UPFT_ERR" "^upfront: the path .* cannot be written in uprobe_events: it has ${whats[$i]} at byte [0-9]+;" \
		"... naming what is wrong"
	t_is "$(printf '%s\n' "$UPFT_ERR" | wc -l)" 1 "... on one line"
	t_is "$UPFT_OUT" "" "... printing no definition"

	upft_run -x "$dir/orders" -a "upft_paths_$$=process_order o->id"
	t_is "$UPFT_RC" 2 "-a, a path with a $desc: exit 2"
	t_unlike "$(cat "$UPFT_TRACEFS/uprobe_events")" "upft_paths_$$|^p:$UPFT_GROUP/evil" \
		"... nothing written to uprobe_events"
done
t_unlike "$UPFT_ERR" $'\x1b' "the ESC of a path reaches the terminal escaped"

# trace mode takes every one of them, by descriptor
for i in "${!names[@]}"; do
	dir=$D/${names[$i]}
	upft_run --json --max-events 2 -x "$dir/orders" 'process_order o->id' -- "$dir/orders"
	t_is "$UPFT_RC" 0 "trace mode, a path with a ${descs[$i]}: exit 0"
	t_is "$(upft_json_arg "$UPFT_OUT" 1 id)/$(upft_json_arg "$UPFT_OUT" 2 id)" 101/102 \
		"... both calls traced"
done
# without -x, -- CMD runs the very file that was opened (fexecve), found on $PATH
upft_run --json --max-events 2 'process_order o->id' -- "$D/$evil/orders"
t_is "$(upft_json_arg "$UPFT_OUT" 1 id)" 101 "-- CMD alone, a path with a newline: traced"
(PATH="$D/has blank:$PATH" upft_run --json --max-events 1 'process_order o->id' -- orders &&
	printf '%s\n' "$UPFT_OUT" >"$D/bare.out")
t_is "$(upft_json_arg "$(cat "$D/bare.out")" 1 id)" 101 "-- CMD by name on \$PATH: traced"
t_unlike "$(cat "$UPFT_TRACEFS/uprobe_events")" "^p:$UPFT_GROUP/evil" \
	"no event of the injected command ever appeared"

# --- a live session: /proc/PID/fd/N in uprobe_events, the path in -l; the inode is probed
dir=$D/$evil
"$UPFRONT" --json --duration 30 --max-events 2 -x "$dir/orders" \
	'process_order o->id' >"$D/live.out" 2>"$D/live.err" &
up=$!
upft_wait_tracing "$up" || t_diag "upfront_$up does not trace: $(cat "$D/live.err")"
line=$(grep -a "^p:upfront_$up/" "$UPFT_TRACEFS/uprobe_events")
t_like "$line" "^p:upfront_$up/process_order /proc/$up/fd/[0-9]+:0x[0-9a-f]+ " \
	"the session gives the kernel /proc/PID/fd/N"
upft_run -l "upfront_$up:*"
# where the probe is: the entry on x86-64; on arm64 past the -O0 prologue's stores (+0xc: o is
# read from its slot at sp+24 there)
at=0x0
[ "$(uname -m)" = aarch64 ] && at=0xc
t_like "$UPFT_OUT" "^  upfront_$up:process_order \\(on process_order\\+$at in $D/A:0x1000\\\\np:$UPFT_GROUP/evil/orders with id .*\\)\$" \
	"-l shows the file's path (escaped), not /proc/PID/fd/N"
# swap another binary in at the path: not probed; the file upfront opened still is
mv "$dir/orders" "$dir/orders.opened"
cp "$UPFT_TARGETS/c/orders-O2" "$dir/orders"
"$dir/orders" >/dev/null
"$dir/orders.opened" 3 >/dev/null
wait "$up"
t_is "$?" 0 "the session ends after 2 events"
t_is "$(upft_json_count "$(cat "$D/live.out")")" 2 "... 2 events"
t_is "$(sed -n 's/.*"comm":"\([^"]*\)".*/\1/p' "$D/live.out" | sort -u)" orders.opened \
	"... both from the file upfront opened, none from the one swapped in at its path"
t_unlike "$(cat "$UPFT_TRACEFS/uprobe_events")" "^p:upfront_$up/" "... and its probe is removed"

# --- --keep: the probes outlive the session, so the kernel gets the path (as with -a)
#     (looked at before it is waited for: a concurrent run reaps a kept session once its pid
#     is gone)
upft_run_held --json --max-events 1 --keep -x "$src" 'process_order o->id' -- "$src"
kp=$UPFT_PID
kept=$(grep -a "^p:upfront_$kp/process_order $src:" "$UPFT_TRACEFS/uprobe_events")
"$UPFRONT" -d "upfront_$kp:*" >/dev/null 2>&1
upft_release
t_is "$UPFT_RC" 0 "--keep: exit 0"
t_like "$kept" "^p:upfront_$kp/process_order $src:0x" "... the kept probe names the binary by its path"
upft_run --json --max-events 1 --keep -x "$D/$evil/orders" 'process_order o->id' -- "$D/$evil/orders"
t_is "$UPFT_RC" 2 "--keep, a path with a newline: exit 2"
t_like "$UPFT_ERR" "^upfront: the path .* cannot be written in uprobe_events: it has a newline" \
	"... the path cannot be written"
t_unlike "$(cat "$UPFT_TRACEFS/uprobe_events")" "/evil/orders:" "... nothing left installed"

# --- -p PID: /proc/PID/exe opened as is, also when the path is gone
cp "$src" "$D/has blank/victim"
"$D/has blank/victim" 0 20 >/dev/null &
victim=$!
upft_wait_exec "$victim" "$D/has blank/victim"
rm "$D/has blank/victim"
upft_run --json --max-events 2 -p "$victim" 'process_order o->id'
t_is "$UPFT_RC" 0 "-p PID of a deleted binary: exit 0"
t_is "$(upft_json_arg "$UPFT_OUT" 1 id)" 101 "... traced through /proc/PID/exe"
upft_run -D -p "$victim" 'process_order o->id'
t_is "$UPFT_RC" 2 "-D -p PID of a deleted binary: exit 2"
t_like "$UPFT_ERR" "^upfront: the path $D/has blank/victim \\(deleted\\) cannot be written in uprobe_events: it has a blank" \
	"... its path cannot be written"
kill "$victim"
wait "$victim" 2>/dev/null

# --- -p of a process in another mount namespace (a container): its /proc/PID/exe shows a
# path of that namespace, which names nothing (or another file) here. -a would give the
# kernel that path: refused; trace mode uses the file itself.
command -v unshare >/dev/null || t_bail "unshare (util-linux) not installed"
mkdir "$D/ns"
unshare -m --propagation private sh -c \
	'mount -t tmpfs none "$1" && cp "$2" "$1/victim" && exec "$1/victim" 0 20' \
	sh "$D/ns" "$src" >/dev/null &
nsv=$!
upft_wait_exec "$nsv" "$D/ns/victim"
t_is "$(readlink "/proc/$nsv/exe")" "$D/ns/victim" "a process in its own mount namespace runs $D/ns/victim"
upft_run -p "$nsv" -a "upft_paths_$$=process_order"
t_is "$UPFT_RC" 2 "-a -p PID of it: exit 2"
t_like "$UPFT_ERR" "^upfront: $D/ns/victim is not here \\(removed meanwhile, or a path of another mount namespace\\);" \
	"... the path names nothing here"
t_unlike "$(cat "$UPFT_TRACEFS/uprobe_events")" "upft_paths_$$" "... nothing added"
upft_run --json --max-events 1 -p "$nsv" 'process_order o->id'
t_is "$(upft_json_arg "$UPFT_OUT" 1 id)" 101 "trace mode -p PID of it: traced by descriptor"
kill "$nsv"
wait "$nsv" 2>/dev/null

t_done
