#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# persistent.sh - -a adds ordinary uprobe events that trace the right values, -l lists them,
# -d deletes only what matches; a bad probe with -a installs nothing
. "$(dirname "$0")/lib.sh"
upft_need_root

bin=$UPFT_TARGETS/c/orders-O2
[ -x "$bin" ] || t_bail "$bin not built (tests/targets/build.sh)"
ev=upft_add_$$
group=

# the trap also removes the event -a made, whatever its group
persistent_cleanup() {
	local l
	grep -E "^[pr]:[^/]*/$ev " "$UPFT_TRACEFS/uprobe_events" 2>/dev/null | while read -r l _; do
		echo 0 >"$UPFT_TRACEFS/events/${l#*:}/enable" 2>/dev/null
		echo "-:${l#*:}" >>"$UPFT_TRACEFS/uprobe_events"
	done
	upft_cleanup
}
trap persistent_cleanup EXIT

# our own event's lines only: other runs add and remove events at the same time
own_lines() {
	grep -cE "^[pr]:[^/]*/$ev " "$UPFT_TRACEFS/uprobe_events"
}
before=$(own_lines)

upft_run -x "$bin" -a "$ev=process_order o->id o->customer->name"
t_is "$UPFT_RC" 0 "-a exits 0"
line=$(grep -E "^p:[^/]*/$ev " "$UPFT_TRACEFS/uprobe_events")
t_like "$line" "^p:probe_orders/$ev " "-a adds the event in group probe_orders (perf's name)"
group=$(printf '%s\n' "$line" | sed -n 's/^p:\([^/]*\)\/.*/\1/p')
t_like "$UPFT_OUT$UPFT_ERR" "perf record -e $group:$ev" "-a tells how to use it with perf record"

upft_run -l
t_is "$UPFT_RC" 0 "-l exits 0"
t_like "$UPFT_OUT" "$group:$ev" "-l lists the event"
t_like "$UPFT_OUT" "^  $group:$ev \\(on process_order\\+0x0 in $bin with id" \
	"-l names the place as perf does: function+offset in the binary, then the arguments"
upft_run -l "$group:upft_add_*"
t_like "$UPFT_OUT" "$group:$ev" "-l GLOB lists the event"

# trace it ourselves in a private instance, as perf or trace-cmd would
if [ -n "$group" ] && d=$(upft_instance add); then
	echo 1 >"$d/events/$group/$ev/enable"
	"$bin" >/dev/null
	echo 0 >"$d/events/$group/$ev/enable"
	trace=$(tr -d '\0' <"$d/trace" | grep -a " $ev: ")
	t_like "$trace" 'id=101 .*name="alice"|name="alice".* id=101' "the added event traces the first call"
	t_like "$trace" 'id=102 .*name="bob"|name="bob".* id=102' "the added event traces the second call"
	rmdir "$d"
else
	t_fail "instance for the added event"
fi

upft_run -d "$group:upft_add_nothing_matches_$$"
t_ok $((UPFT_RC == 0)) "-d of a glob that matches nothing fails"
t_like "$(cat "$UPFT_TRACEFS/uprobe_events")" "/$ev " "... and deletes nothing"

upft_run -d "$group:$ev"
t_is "$UPFT_RC" 0 "-d exits 0"
t_is "$UPFT_OUT" "Removed event: $group:$ev" "-d says what it removed, as perf probe -d"
t_unlike "$(cat "$UPFT_TRACEFS/uprobe_events")" "/$ev " "-d removes the event"

upft_run -x "$bin" -a "$ev=process_order o->customer->nosuchfield"
t_is "$UPFT_RC" 2 "-a of a bad probe exits 2"
t_is "$(printf '%s\n' "$UPFT_ERR" | grep -c .)" 1 "... with one line on stderr"
t_is "$(own_lines)" "$before" "... and adds nothing"

t_done
