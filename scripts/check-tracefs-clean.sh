#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# check-tracefs-clean.sh - TAP check: no uprobe events in groups upft_*/upfront_* and no
# instances so named are left in tracefs (a name that carries the pid of a running process,
# upfront_<pid> or upft_t<pid>, is a session in progress and is not counted)
#
# usage: check-tracefs-clean.sh [--save FILE | --baseline FILE]
#   --save FILE      record what is there now (run before the tests) and exit
#   --baseline FILE  ignore what FILE recorded (left by someone else before the tests began)
set -u

tracefs=${UPFT_TRACEFS:-/sys/kernel/tracing}
save= baseline=
while [ $# -gt 0 ]; do
	case $1 in
	--save) save=$2; shift 2 ;;
	--baseline) baseline=$2; shift 2 ;;
	*) echo "usage: $0 [--save FILE | --baseline FILE]" >&2; exit 2 ;;
	esac
done

# state - one line per uprobe event ("event GROUP/EVENT") or instance ("instance NAME") of ours
state() {
	sed -n 's/^[pr]:\(\(upft_\|upfront_\)[^/ ]*\/[^ ]*\) .*/event \1/p' \
		"$tracefs/uprobe_events" 2>/dev/null
	local d
	for d in "$tracefs"/instances/upft_* "$tracefs"/instances/upfront_*; do
		[ -d "$d" ] && echo "instance ${d##*/}"
	done
	return 0
}

if [ -n "$save" ]; then
	state | sort -u >"$save"
	exit 0
fi

if [ ! -e "$tracefs/uprobe_events" ]; then
	echo "not ok 1 - check-tracefs-clean: $tracefs is not mounted"
	exit 1
fi

# alive NAME - NAME (upfront_<pid>, upft_t<pid>, upft_cmp<pid>...) belongs to a running process:
# a session or test in progress (on a shared machine), not something left behind
# (a session's lock file under /run/upfront, held: alive, also when its pid is another pid
# namespace's)
alive() {
	local pid lock=/run/upfront/$1.lock
	[ -e "$lock" ] && ! flock -n "$lock" true 2>/dev/null && return 0
	pid=$(printf '%s\n' "$1" | sed -n 's/^\(upfront_\|upft_[a-z]*\)\([0-9][0-9]*\).*/\2/p')
	[ -n "$pid" ] && [ "$pid" != "$$" ] && [ -d "/proc/$pid" ]
}

left=
busy=
while read -r kind name; do
	[ -n "$kind" ] || continue
	if [ -n "$baseline" ] && [ -r "$baseline" ] && grep -qxF "$kind $name" "$baseline"; then
		continue
	fi
	if alive "$name"; then
		busy="$busy$kind $name (process ${name//[!0-9]/} is running)"$'\n'
		continue
	fi
	left="$left$kind $name"$'\n'
done < <(state | sort -u)
left=${left%$'\n'}
# Another suite on the same machine may have just killed a run of its own on purpose
# (session.sh's kill -9) or be removing what one left: what is still there a moment later,
# of no running process, is left behind. (Alone, as on CI, nothing else removes it.)
if [ -n "$left" ]; then
	sleep 2
	now=$(state | sort -u)
	still=
	while read -r kind name; do
		grep -qxF "$kind $name" <<<"$now" && ! alive "$name" && still="$still$kind $name"$'\n'
	done <<<"$left"
	left=${still%$'\n'}
fi
[ -n "$busy" ] && printf '%s' "$busy" | sed 's/^/# in use, not counted: /'

if [ -z "$left" ]; then
	echo "ok 1 - check-tracefs-clean: no upft_*/upfront_* events or instances left"
	exit 0
fi
echo "not ok 1 - check-tracefs-clean: left in $tracefs:"
printf '%s\n' "$left" | sed 's/^/#   /'
exit 1
