#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# crash.sh - a session that dies (kill -9, SIGSEGV, SIGABRT) leaves tracefs clean within
# seconds: its cleanup watchdog removes the instance and the events; liveness is a lock
# file under /run/upfront, not a pid number: a session in another pid namespace, whose pid
# means nothing here, is never reaped by a concurrent run, and a held lock keeps a session
# whose pid is gone; a name without a lock file (an older upfront's) keeps the pid rule
. "$(dirname "$0")/lib.sh"

upft_need_root
# an ASan build (scripts/sanitize-suite) takes the SIGSEGV sent below for its own error and
# exits 1: here it is a signal from outside, to die of
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}handle_segv=0
C=$UPFT_TARGETS/c/orders-O0
[ -x "$C" ] || t_bail "test targets not built (tests/targets/build.sh)"
LOCKS=/run/upfront
BG=()
FAKE=()

crash_cleanup() {
	local p g
	for p in "${BG[@]}"; do
		kill -9 "$p" 2>/dev/null
	done
	for g in "${FAKE[@]}"; do
		echo "-:$g/fake" >>"$UPFT_TRACEFS/uprobe_events" 2>/dev/null
		rm -f "$LOCKS/$g.lock"
	done
	upft_cleanup
}
trap crash_cleanup EXIT

# has_session NAME - one of its instances (its own, its tasks ring's) or any event of its group
# exists
has_session() {
	[ -d "$UPFT_TRACEFS/instances/$1" ] || [ -d "$UPFT_TRACEFS/instances/${1}_tasks" ] ||
		grep -q "^[pr]:$1/" "$UPFT_TRACEFS/uprobe_events"
}

# gone_within NAME SECONDS - poll until the session NAME left nothing in tracefs
gone_within() {
	local i
	for ((i = 0; i < $2 * 10; i++)); do
		has_session "$1" || return 0
		sleep 0.1
	done
	return 1
}

# start ARGS... - upfront in the background, its pid in $P, once its instance exists
start() {
	"$UPFRONT" "$@" >"$UPFT_TMP/bg.out" 2>"$UPFT_TMP/bg.err" &
	P=$!
	BG+=("$P")
	for ((i = 0; i < 100; i++)); do
		[ -d "$UPFT_TRACEFS/instances/upfront_$P" ] &&
			grep -q "^p:upfront_$P/" "$UPFT_TRACEFS/uprobe_events" && return 0
		sleep 0.1
	done
	return 1
}

# watchdog_runs PID - the cleanup watchdog of upfront PID's session runs
watchdog_runs() {
	pgrep -f -- "--watchdog-internal upfront_$1 " >/dev/null
}

# free_pid - a pid number of this namespace that is free, and ours: the one a child of ours
# had, just reaped (the allocator has moved past it; a concurrent crash.sh, which took the
# same number when it counted down from ns_last_pid, cannot get it)
free_pid() {
	local n
	while :; do
		sh -c : &
		n=$!
		wait "$n"
		[ -e "/proc/$n" ] || has_session "upfront_$n" || break
	done
	echo "$n"
}

for sig in KILL SEGV ABRT; do
	start --stdio -x "$C" 'process_order o->id' -- sleep 60
	t_ok $? "SIG$sig: the session is up"
	CMD=$(pgrep -P "$P" -x sleep)
	[ -e "$LOCKS/upfront_$P.lock" ]
	t_ok $? "SIG$sig: its lock file exists"
	# (forked before the instance is made; its exec may come later)
	upft_until 5 watchdog_runs "$P"
	t_ok $? "SIG$sig: its watchdog runs"
	kill -"$sig" "$P"
	wait "$P" 2>/dev/null
	rc=$?
	[ "$sig" = KILL ] || t_is "$rc" $((128 + $(kill -l "$sig"))) "SIG$sig: upfront dies of it"
	gone_within "upfront_$P" 3
	t_ok $? "SIG$sig: instance and events removed within 3 s, without another run"
	# (the watchdog removes the lock file after the rest, then exits)
	upft_until 3 test ! -e "$LOCKS/upfront_$P.lock"
	t_ok $? "SIG$sig: the lock file is removed"
	upft_until 3 eval '! watchdog_runs "$P"'
	t_ok $? "SIG$sig: the watchdog is gone"
	[ -n "$CMD" ] && kill "$CMD" 2>/dev/null
done

# a normal end: nothing left, no watchdog, no lock file
start --stdio -x "$C" 'process_order o->id' -- sleep 60
kill -INT "$P"
wait "$P"
t_is "$?" 0 "SIGINT: a clean end"
t_ok "$(has_session "upfront_$P" && echo 1 || echo 0)" "SIGINT: nothing left"
t_ok "$([ -e "$LOCKS/upfront_$P.lock" ] && echo 1 || echo 0)" "SIGINT: no lock file left"
t_ok "$(pgrep -f -- "--watchdog-internal upfront_$P " >/dev/null && echo 1 || echo 0)" "SIGINT: no watchdog left"

# --keep: no watchdog (nothing to clean), the events stay (looked at while upfront's pid is
# still taken: a concurrent run reaps a kept session once its pid is gone)
upft_start_held --stdio --keep -x "$C" 'process_order o->id' -- sleep 60
P=$UPFT_PID
for ((i = 0; i < 100; i++)); do
	grep -q "^p:upfront_$P/" "$UPFT_TRACEFS/uprobe_events" && break
	sleep 0.1
done
t_ok "$(pgrep -f -- "--watchdog-internal upfront_$P " >/dev/null && echo 1 || echo 0)" "--keep: no watchdog"
kill -INT "$P"
upft_wait_held
t_is "$UPFT_RC" 0 "--keep: a clean end"
grep -q "^p:upfront_$P/" "$UPFT_TRACEFS/uprobe_events"
t_ok $? "--keep: the events stay"
t_ok "$([ -f "$LOCKS/upfront_$P.kept" ] && echo 0 || echo 1)" "--keep: marked kept in $LOCKS"
upft_release
# its pid free again: the next session reaps dead sessions as it starts, never a kept one
upft_run --stdio --max-events 1 -x "$C" 'process_order o->id' -- "$C" 0 5
t_is "$UPFT_RC" 0 "--keep: another session runs"
grep -q "^p:upfront_$P/" "$UPFT_TRACEFS/uprobe_events"
t_ok $? "... and leaves the kept events"
t_ok "$([ -d "$UPFT_TRACEFS/instances/upfront_$P" ] && echo 0 || echo 1)" "... and instance"
# upfront -d removes the events, then the instance and the mark (nothing left behind)
"$UPFRONT" -d "upfront_$P:*" >/dev/null
t_unlike "$(cat "$UPFT_TRACEFS/uprobe_events")" "^p:upfront_$P/" "--keep: -d removes the events"
t_ok "$([ -e "$UPFT_TRACEFS/instances/upfront_$P" ] && echo 1 || echo 0)" "... the instance"
t_ok "$([ -e "$LOCKS/upfront_$P.kept" ] && echo 1 || echo 0)" "... and the mark"

# locked PATH - PATH exists and a lock on it is held (flock -n fails; -e first: flock(1)
# would create it)
locked() {
	[ -e "$1" ] && ! flock -n "$1" true
}

# liveness by lock in this namespace: a session name whose pid is gone, its lock held. The
# names carry a suffix (upfront_<pid>_<n>, as a session whose name was taken gets): older
# upfront builds running meanwhile ignore them, this one judges them. The lock is held before
# the event exists and still held after: a name without a lock file whose pid is gone is any
# concurrent run's to reap (the pid rule), and so is a lock file not locked yet
N=$(free_pid)
G=upfront_${N}_7
FAKE+=("$G")
mkdir -p "$LOCKS" && chmod 700 "$LOCKS"
flock -o "$LOCKS/$G.lock" sleep 60 &
HOLD=$!
BG+=("$HOLD")
for ((i = 0; i < 100; i++)); do
	locked "$LOCKS/$G.lock" && break
	sleep 0.1
done
echo "p:$G/fake $C:0x1000" >>"$UPFT_TRACEFS/uprobe_events" || t_bail "cannot define $G/fake"
locked "$LOCKS/$G.lock" || t_bail "cannot hold the lock of $G ($LOCKS/$G.lock)"
upft_run --stdio --max-events 1 -x "$C" process_order -- "$C"
grep -q "^p:$G/fake " "$UPFT_TRACEFS/uprobe_events"
t_ok $? "a held lock keeps a session whose pid ($N) is gone"
upft_run -d "upfront_*:fake"
grep -q "^p:$G/fake " "$UPFT_TRACEFS/uprobe_events"
t_ok $? "... -d with a glob does not touch it either"
kill "$HOLD"
wait "$HOLD" 2>/dev/null
upft_run --stdio --max-events 1 -x "$C" process_order -- "$C"
! grep -q "^p:$G/fake " "$UPFT_TRACEFS/uprobe_events"
t_ok $? "its lock free, the next run reaps it"
[ ! -e "$LOCKS/$G.lock" ]
t_ok $? "... and its lock file"

# no lock file at all (an older upfront's session): the pid rule
G=upfront_${N}_8
FAKE+=("$G")
echo "p:$G/fake $C:0x1000" >>"$UPFT_TRACEFS/uprobe_events" || t_bail "cannot define $G/fake"
upft_run --stdio --max-events 1 -x "$C" process_order -- "$C"
! grep -q "^p:$G/fake " "$UPFT_TRACEFS/uprobe_events"
t_ok $? "no lock file, its pid gone: reaped as before"

# runs that start together and find the same remains without a lock file reap them once:
# one removes them, the others have nothing to say (two at once: "could not remove
# instance", EBUSY or ENOENT, an extra stderr line)
G=upfront_${N}_9
FAKE+=("$G")
for ((round = 1; round <= 5; round++)); do
	echo "p:$G/fake $C:0x1000" >>"$UPFT_TRACEFS/uprobe_events" || t_bail "cannot define $G/fake"
	mkdir "$UPFT_TRACEFS/instances/$G" || t_bail "cannot create instance $G"
	# from round 2 a tasks instance too, and in round 5 that alone (its session's remains)
	[ "$round" -ge 2 ] && { mkdir "$UPFT_TRACEFS/instances/${G}_tasks" ||
		t_bail "cannot create instance ${G}_tasks"; }
	[ "$round" = 5 ] && rmdir "$UPFT_TRACEFS/instances/$G"
	R=()
	for k in 1 2 3 4; do
		"$UPFRONT" --stdio --max-events 1 -x "$C" process_order -- "$C" \
			>"$UPFT_TMP/r$k.out" 2>"$UPFT_TMP/r$k.err" </dev/null &
		R+=("$!")
	done
	rcs=
	for p in "${R[@]}"; do
		wait "$p"
		rcs+=" $?"
	done
	t_is "$rcs" " 0 0 0 0" "round $round: 4 runs at once that find a dead session exit 0"
	# (and, where CMD was still running when --max-events stopped the session, as four
	# at once under emulation may leave it, the line saying upfront ended it)
	t_is "$(cat "$UPFT_TMP"/r[1-4].err | grep -Ev '^(upfront: 1 events, 0 lost|orders: .*|upfront: orders-O0 \(pid [0-9]+\) was ended by upfront \(SIGTERM\) as the session stopped)$')" "" \
		"round $round: ... and say nothing but their summary"
	! has_session "$G"
	t_ok $? "round $round: ... and its remains are gone"
done
[ -d "$UPFT_TRACEFS/instances/$G" ] && rmdir "$UPFT_TRACEFS/instances/$G"
[ -d "$UPFT_TRACEFS/instances/${G}_tasks" ] && rmdir "$UPFT_TRACEFS/instances/${G}_tasks"

# a session in another pid namespace, at a pid number that is free here: a concurrent run
# must not take it for dead
command -v unshare >/dev/null || t_bail "unshare (util-linux) is not installed"
N=$(free_pid)
unshare --pid --fork --mount-proc sh -c "echo $((N - 1)) >/proc/sys/kernel/ns_last_pid &&
	exec sh -c '\"\$0\" --stdio -x \"\$1\" \"process_order o->id\" -- sh -c \"while :; do \$1 >/dev/null; sleep 0.3; done\" & wait' \"$UPFRONT\" \"$C\"" \
	>"$UPFT_TMP/ns.out" 2>"$UPFT_TMP/ns.err" &
NS=$!
BG+=("$NS")
for ((i = 0; i < 100; i++)); do
	has_session "upfront_$N" && break
	sleep 0.1
done
has_session "upfront_$N"
t_ok $? "a session in another pid namespace runs as upfront_$N" || t_diag "$(cat "$UPFT_TMP/ns.err")"
# (older upfront builds running meanwhile may still take it for dead by its pid: what this
# run does is in its -v log)
upft_run -v --stdio --max-events 1 -x "$C" process_order -- "$C"
t_is "$UPFT_RC" 0 "a concurrent run here exits 0"
t_unlike "$UPFT_ERR" "upfront_$N\\b" "... and leaves the other namespace's session alone (pid $N is free here)"
NSUP=
for p in $(pgrep -x upfront); do
	grep -Eq "^NSpid:.*[[:space:]]$N\$" "/proc/$p/status" 2>/dev/null && NSUP=$p
done
[ -n "$NSUP" ] && kill -INT "$NSUP"
gone_within "upfront_$N" 5
t_ok $? "stopped, it cleans up after itself"
wait "$NS"

t_done
