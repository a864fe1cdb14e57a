#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# lock-kill.sh - no lock file stays behind, whenever upfront is killed: 40 runs SIGKILLed at
# moments spread over their start (between taking the lock and starting the watchdog, one
# left /run/upfront/upfront_PID.lock for good: nothing in tracefs named it, so no later run
# looked), then one run: none of theirs is left, nor anything of theirs in tracefs.
. "$(dirname "$0")/lib.sh"
upft_need_root

C=$UPFT_TARGETS/c/calls-O2
[ -x "$C" ] || t_bail "targets not built (tests/targets/build.sh $UPFT_TARGETS)"
[ -d /run/upfront ] || "$UPFRONT" --stdio -x "$C" 'tick i' -- "$C" exit 0 >/dev/null 2>&1

pids=()
for ((i = 0; i < 40; i++)); do
	"$UPFRONT" --stdio -x "$C" 'tick i' -- "$C" exit 0 >/dev/null 2>&1 </dev/null &
	p=$!
	pids+=("$p")
	# 0 to 39 ms: the lock is taken a few ms after the start, the watchdog a little later
	sleep "0.0$(printf '%02d' "$i")"
	kill -KILL "$p" 2>/dev/null
	wait "$p" 2>/dev/null
done
# the watchdogs of the runs that had one clean up by themselves; give them a moment
sleep 1
upft_run --stdio -x "$C" 'tick i' -- "$C" exit 0
t_is "$UPFT_RC" 0 "a run after 40 killed ones: exit 0"
left=
for p in "${pids[@]}"; do
	for f in /run/upfront/upfront_"$p".lock /run/upfront/upfront_"$p"_*.lock; do
		[ -e "$f" ] && left+=" $f"
	done
	grep -q "^[pr]:upfront_$p/" "$UPFT_TRACEFS/uprobe_events" && left+=" events:upfront_$p"
	[ -d "$UPFT_TRACEFS/instances/upfront_$p" ] && left+=" instance:upfront_$p"
	[ -d "$UPFT_TRACEFS/instances/upfront_${p}_tasks" ] && left+=" instance:upfront_${p}_tasks"
done
t_is "$left" "" "nothing of the 40 killed runs is left (lock files, events, instances)"
t_done
