#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# clock.sh - the session's trace clock merges the CPUs' records in causal order
#
# Two threads, pinned to CPU 0 and CPU 1 where there are two, take turns: each hits the probe
# with the turn's number, then hands the turn over, so every hit happens after the one before
# it on the other CPU. Merged by their time stamps the events must count 0, 1, 2, ... with
# the session's default clock ("local" where the TSC is the clocksource: tracing.c) and with
# UPFRONT_TRACE_CLOCK=mono. Also: the clock is the one -vv names, and a bad value is refused.
. "$(dirname "$0")/lib.sh"
upft_need_root

PP=$UPFT_TMP/pingpong
cat >"$PP.c" <<'EOF'
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
static _Atomic long turn;
static long n;
volatile long sink;
__attribute__((noinline)) long hit(long k)
{
	return sink += k;
}
static void *run(void *arg)
{
	long me = (long)arg;
	cpu_set_t cs;

	CPU_ZERO(&cs);
	CPU_SET(me, &cs);
	pthread_setaffinity_np(pthread_self(), sizeof(cs), &cs);	/* one CPU: both on it */
	for (long k = me; k < 2 * n; k += 2) {
		while (atomic_load(&turn) != k)
			sched_yield();
		hit(k);
		atomic_store(&turn, k + 1);
	}
	return NULL;
}
int main(int argc, char **argv)
{
	pthread_t t[2];

	n = argc > 1 ? atol(argv[1]) : 1000;
	for (long i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, run, (void *)i);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	return 0;
}
EOF
gcc -g -O0 -pthread -o "$PP" "$PP.c" || t_bail "gcc pingpong"

# in_order FILE - "N CPUS BAD": events, distinct CPUs, events not one past the one before
in_order() {
	python3 -c '
import json, sys
ev = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
k = [e["args"]["k"] for e in ev]
bad = sum(1 for i in range(len(k) - 1) if k[i + 1] != k[i] + 1)
print(len(k), len(set(e["cpu"] for e in ev)), bad)' "$1"
}

ncpu=$(nproc)
for clk in default mono; do
	if [ $clk = default ]; then
		upft_run -vv --json -o "$UPFT_TMP/pp.json" -x "$PP" 'hit k' -- "$PP" 3000
	else
		UPFRONT_TRACE_CLOCK=mono upft_run -vv --json -o "$UPFT_TMP/pp.json" -x "$PP" 'hit k' \
			-- "$PP" 3000
	fi
	t_is "$UPFT_RC" 0 "$clk clock: exit 0"
	[ $clk = mono ] && t_like "$UPFT_ERR" "trace_clock mono" "mono clock: the instance's"
	read -r n cpus bad < <(in_order "$UPFT_TMP/pp.json")
	t_is "$n $bad" "6000 0" "$clk clock: 6000 events, each after the one it follows"
	[ "$ncpu" -gt 1 ] &&
		t_is "$cpus" 2 "$clk clock: the events came from two CPUs"
done
want=mono
[ "$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)" = tsc ] &&
	[[ $(uname -m) == x86_64 ]] && want=local
upft_run -vv --json --max-events 1 -x "$PP" 'hit k' -- "$PP" 10
t_like "$UPFT_ERR" "trace_clock $want" "the default clock is $want (clocksource $(cat \
/sys/devices/system/clocksource/clocksource0/current_clocksource))"
UPFRONT_TRACE_CLOCK=perf upft_run --json -x "$PP" 'hit k' -- "$PP" 10
t_is "$UPFT_RC" 2 "UPFRONT_TRACE_CLOCK=perf: exit 2"
t_like "$UPFT_ERR" "UPFRONT_TRACE_CLOCK wants 'local' or 'mono', not 'perf'" \
	"UPFRONT_TRACE_CLOCK=perf: says what it wants"
t_done
