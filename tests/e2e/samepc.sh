#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# samepc.sh - a glob whose matches put two points of one event at one address (a function
# and another's inlined copy, placed on the same emulated je: go/samepc, the shape -a '*'
# met 13 times in docker): the copy is left out before the kernel sees it, which rejected
# the second ("exact same probe event"), and each call is one event
. "$(dirname "$0")/lib.sh"
upft_need_root

T=$UPFT_TARGETS/go/samepc
upft_need_targets "$T"

if [ "$UPFT_ARCH" = arm64 ]; then
	# arm64's Go puts them apart (objdump -d): flagString's entry goes to its first simulated
	# instruction, adrp at +0x14, formatFlag's copy to the ret at +0x28; both are kept, and
	# each call of flagString runs both once
	upft_run -v -x "$T" -D 'main.*lag*'
	t_is "$UPFT_RC" 0 "-D 'main.*lag*': exit 0"
	t_is "$(printf '%s\n' "$UPFT_OUT" | grep '^p:' | awk '{ print $2 }' | sort -u | wc -l)" 2 \
		"... two points at two addresses (arm64)"
	t_unlike "$UPFT_ERR" 'left out' "... none left out"
	upft_run --json -x "$T" 'main.*lag*' -- "$T" 4
	t_is "$UPFT_RC" 0 "a live session on it: exit 0"
	t_is "$(upft_json_count "$UPFT_OUT")" 8 "... two events per call of flagString (4 calls)"
	t_done
fi
upft_run -v -x "$T" -D 'main.*lag*'
t_is "$UPFT_RC" 0 "-D 'main.*lag*': exit 0"
t_is "$(printf '%s\n' "$UPFT_OUT" | grep -c '^p:')" 1 "... one point: the two matches are at one address"
t_like "$UPFT_ERR" 'main.formatFlag: at 0x[0-9a-f]+ as another point of main_lag: left out' \
	"... -v names the one left out"

upft_run -x "$T" -g "$UPFT_GROUP" -a 'main.*lag*'
t_is "$UPFT_RC" 0 "-a 'main.*lag*': the kernel takes it (it rejected the second point)"
t_is "$(grep -c "^p:$UPFT_GROUP/main_lag " "$UPFT_TRACEFS/uprobe_events")" 1 "... one point"
t_like "$UPFT_ERR" "$UPFT_GROUP:main_lag \\(on main\\.\\(\\*flagValue\\)\\.flagString in " \
	"... the function's own entry, not the inlined copy"
upft_run -d "$UPFT_GROUP:*"

upft_run --json -x "$T" 'main.*lag*' -- "$T" 4
t_is "$UPFT_RC" 0 "a live session on it: exit 0"
t_is "$(upft_json_count "$UPFT_OUT")" 4 "... one event per call of flagString (4 calls)"

t_done
