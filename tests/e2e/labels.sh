#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# labels.sh - every event is labelled by what its task was when it fired: pid and comm right
# across thread-id reuse (a thread's id handed to a new process), after an exec (-- env PROG:
# PROG's name, not env's), and for 10,000 forked children, each labelled as itself, at about
# the cost of the children untraced (upfront reread saved_tgids and saved_cmdlines for each:
# 300 children took 10.9 s, 10,000 did not end in 120 s).
. "$(dirname "$0")/lib.sh"
upft_need_root

C=$UPFT_TARGETS/c/calls-O2
[ -x "$C" ] || t_bail "targets not built (tests/targets/build.sh $UPFT_TARGETS)"

# 1. tid reuse: "worker" thread T of process P calls spawned(1), exits; a child that got id T
#    names itself "reuser" and calls spawned(2). The target asks for T with ns_last_pid once
#    no set_event_pid holds T (the kernel drops a freed task's id from it an RCU grace period
#    late, and with it a new process that got the id: calls.c): forking until the ids wrap
#    took longer than 540 s under 6.12 and TCG with a pid_max of 16384, and check 3 wants
#    10,000 ids, so a smaller pid_max was no way out
UPFT_TIMEOUT=$((180 * ${UPFT_TIMEOUT_SCALE:-1})) upft_run --json -x "$C" 'spawned id' -- "$C" reuse
t_is "$UPFT_RC" 0 "reuse: exit 0"
line=$(printf '%s\n%s\n' "$UPFT_OUT" "$UPFT_ERR" | grep '^calls: reuse tid')
tid=$(sed -E 's/.* tid ([0-9]+) .*/\1/' <<<"$line")
pid=$(sed -E 's/.* pid ([0-9]+) .*/\1/' <<<"$line")
[ -n "$tid" ] || t_bail "the target did not get its thread's id again: $UPFT_ERR"
t_is "$(grep '"id":1' <<<"$UPFT_OUT" | sed -E 's/.*"pid":([0-9]+),"tid":([0-9]+),"comm":"([^"]*)".*/\1 \2 \3/')" \
	"$pid $tid worker" "reuse: the thread's event is process $pid, thread $tid, worker"
t_is "$(grep '"id":2' <<<"$UPFT_OUT" | sed -E 's/.*"pid":([0-9]+),"tid":([0-9]+),"comm":"([^"]*)".*/\1 \2 \3/')" \
	"$tid $tid reuser" "reuse: the new process with the same id is process $tid, reuser"

# 2. exec: the events of the program env runs carry that program's name
upft_run --stdio -x "$C" 'walk n' -- env "$C" walk 3
t_is "$UPFT_RC" 0 "exec: exit 0"
t_is "$(grep -cE '^[0-9.]+ calls-O2/[0-9]+ walk n=' <<<"$UPFT_OUT")" 5 "exec: 5 events labelled calls-O2"
t_unlike "$UPFT_OUT" '^[0-9.]+ env/' "exec: none labelled env"

# 3. 10,000 children, one after the other: each event is its own process, at near the
#    untraced cost
N=10000
t0=$(date +%s%N)
"$C" forks $N 2>/dev/null
untraced=$((($(date +%s%N) - t0) / 1000000))
t0=$(date +%s%N)
# (the guard against a hang follows the machine: 10,000 forks untraced take seconds here, a
# minute in a qemu TCG guest)
UPFT_TIMEOUT=$((120 + untraced * 5 / 1000)) upft_run --json -x "$C" 'spawned id' -- "$C" forks $N
traced=$((($(date +%s%N) - t0) / 1000000))
t_is "$UPFT_RC" 0 "forks: exit 0"
t_like "$UPFT_ERR" "^upfront: $N events, 0 lost\$" "forks: $N events, 0 lost"
t_is "$(python3 -c '
import json, sys
evs = [json.loads(l) for l in sys.stdin]
print(len(evs), sum(e["pid"] == e["tid"] and e["comm"] == "calls-O2" for e in evs),
      len({e["pid"] for e in evs}), len({e["args"]["id"] for e in evs}))' <<<"$UPFT_OUT")" \
	"$N $N $N $N" "forks: $N events, each its own process named calls-O2, $N pids, $N ids"
t_ok $((traced < untraced * 5 + 10000 ? 0 : 1)) \
	"forks: traced in ${traced} ms (untraced ${untraced} ms; at most 5x + 10 s)"
t_done
