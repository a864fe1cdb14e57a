#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# summary.sh - the summary at exit (--summary, --summary-only), on SIGUSR1 and every
# --interval: per probe its count and rate, numbers' min/avg/max and log2 histogram (the
# buckets and bars of bpftrace's hist()), strings' and enums' top values, durations of
# FUNC%return with percentiles; text and JSON, the same numbers
. "$(dirname "$0")/lib.sh"
upft_need_root

C=$UPFT_TARGETS/c/calls-O2
O=$UPFT_TARGETS/c/orders-O0
upft_need_targets "$C" "$O"

# 1. calls threads 2 5: job(id, usec) with id = thread * 1000 + call (0..4, 1000..1004),
#    usec = (thread + 1) * 1000 + call * 100 (1000..1400, 2000..2400); each sleeps usec
upft_run --summary-only -x "$C" 'job id usec' 'job%return $retval' -- "$C" threads 2 5
t_is "$UPFT_RC" 0 "--summary-only: exit 0"
t_unlike "$UPFT_OUT" 'job id=' "--summary-only: no event lines"
t_like "$UPFT_OUT" '^@ summary: [0-9.]+ s, 20 events, 0 lost$' "summary: its header line"
t_like "$UPFT_OUT" '^job: 10 events, [0-9.]+/s$' "job: count and rate"
t_like "$UPFT_OUT" '^  id: 10 values, min 0, avg 502, max 1004$' "id: min, avg, max"
t_like "$UPFT_OUT" '^  usec: 10 values, min 1000, avg 1700, max 2400$' "usec: min, avg, max"
# bpftrace's hist() (0.17, the same run: bpftrace -e 'uprobe:calls-O2:job { @id = hist(arg0) }'
# prints these lines, unindented): [0], [1], [2, 4) ... [512, 1K), empty buckets between
hist=$(printf '%s\n' "$UPFT_OUT" | sed -n '/^  id:/,/^  usec:/p' | sed '1d;$d')
want='    [0]                    1 |@@@@@@@@@@                                          |
    [1]                    1 |@@@@@@@@@@                                          |
    [2, 4)                 2 |@@@@@@@@@@@@@@@@@@@@                                |
    [4, 8)                 1 |@@@@@@@@@@                                          |
    [8, 16)                0 |                                                    |
    [16, 32)               0 |                                                    |
    [32, 64)               0 |                                                    |
    [64, 128)              0 |                                                    |
    [128, 256)             0 |                                                    |
    [256, 512)             0 |                                                    |
    [512, 1K)              5 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|'
t_is "$hist" "$want" "id: the log2 histogram as bpftrace's hist() prints it"
t_like "$UPFT_OUT" '^    \[1K, 2K\) +5 \|' "usec: 5 values in [1K, 2K)"
t_like "$UPFT_OUT" '^    \[2K, 4K\) +4 \|' "usec: 4 values in [2K, 4K)"
t_like "$UPFT_OUT" '^job__return: 10 events' "job__return: count"
t_like "$UPFT_OUT" '^  duration of job: 10 calls, min [0-9.]+ms, avg [0-9.]+ms, max [0-9.]+ms, p50 [0-9.]+ms, p90 [0-9.]+ms, p99 [0-9.]+ms$' \
	"durations: calls, min/avg/max and p50/p90/p99 (exact: every call kept)"
# nanosleep(usec) lasts at least usec: the fastest call >= 1 ms, the slowest >= 2.4 ms
min=$(printf '%s\n' "$UPFT_OUT" | sed -n 's/^  duration of job: 10 calls, min \([0-9.]*\)ms.*/\1/p')
max=$(printf '%s\n' "$UPFT_OUT" | sed -n 's/.*, max \([0-9.]*\)ms, p50.*/\1/p')
p99=$(printf '%s\n' "$UPFT_OUT" | sed -n 's/.*, p99 \([0-9.]*\)ms$/\1/p')
python3 -c "import sys; a,b,c=map(float,sys.argv[1:]); sys.exit(not (1.0 <= a <= b and b >= 2.4 and c == b))" \
	"$min" "$max" "$p99"
t_ok $? "durations: min $min ms >= 1, max $max ms >= 2.4, p99 of 10 calls is the max ($p99)"
t_like "$UPFT_OUT" '^  comm: 10 events, 1 distinct$' "comm: the events per process name (bpftrace's @[comm] = count())"
t_like "$UPFT_OUT" '^          10  "calls-O2"$' "comm: calls-O2 10 times"
t_like "$UPFT_ERR" 'upfront: 20 events, 0 lost' "the events line on stderr stays"

# 2. the same run in JSON: one object, the same numbers
upft_run --summary-only --json -x "$C" 'job id usec' 'job%return $retval' -- "$C" threads 2 5
t_is "$UPFT_RC" 0 "--summary-only --json: exit 0"
t_is "$(printf '%s\n' "$UPFT_OUT" | grep -c '^{')" 1 "--summary-only --json: one line"
res=$(printf '%s\n' "$UPFT_OUT" | python3 -c '
import json, sys
s = json.loads(sys.stdin.read())["summary"]
p = {x["probe"]: x for x in s["probes"]}
j, r = p["job"], p["job__return"]
idh = {(b["from"], b["to"]): b["count"] for b in j["args"]["id"]["hist"]}
d = r["durations"][0]
print(s["final"], s["events"], s["lost"], j["count"], j["args"]["id"]["min"],
      j["args"]["id"]["avg"], j["args"]["id"]["max"], idh[(0, 1)], idh[(2, 4)], idh[(512, 1024)],
      j["args"]["usec"]["avg"], r["count"], d["func"], d["count"], d["exact"],
      d["min"] >= 0.001, d["max"] >= 0.0024, d["p99"] == d["max"], d["p50"] <= d["p90"],
      j["comm"]["count"], j["comm"]["top"][0]["value"])
')
t_is "$res" "True 20 0 10 0 502 1004 1 2 5 1700 10 job 10 True True True True True 10 calls-O2" \
	"JSON: counts, min/avg/max, buckets, durations in seconds with percentiles"

# 3. strings and enums: their values with counts, most frequent first
upft_run --stdio --summary -x "$O" 'process_order o->id o->customer->name o->tier' -- "$O"
t_is "$UPFT_RC" 0 "--summary with events: exit 0"
t_like "$UPFT_OUT" 'process_order id=101 name="alice"' "--summary: the events are shown too"
t_like "$UPFT_OUT" '^  name: 2 values, 2 distinct$' "name: 2 distinct values"
t_like "$UPFT_OUT" '^           1  "alice"$' "name: alice once"
t_like "$UPFT_OUT" '^           1  "bob"$' "name: bob once"
t_like "$UPFT_OUT" '^           1  TIER_GOLD$' "tier: the enumerator's name"
upft_run --json --summary --top 1 -x "$O" 'process_order o->customer->name' -- "$O"
res=$(printf '%s\n' "$UPFT_OUT" | grep '^{"summary"' | python3 -c '
import json, sys
n = json.loads(sys.stdin.read())["summary"]["probes"][0]["args"]["name"]
print(n["distinct"], len(n["top"]), n["top"][0]["value"], n["other"])')
t_is "$res" "2 1 alice 1" "--top 1: one value listed, the other counted apart"
t_is "$(upft_json_count "$UPFT_OUT")" 3 "--json --summary: 2 events, then the summary line"

# 4. on demand: SIGUSR1 prints the summary so far; --interval every SECS
out=$UPFT_TMP/usr1
"$UPFRONT" --stdio --summary-only -x "$C" 'walk n' -- "$C" loop 3 20 >"$out" 2>"$out.err" </dev/null &
pid=$!
upft_wait_tracing $pid || t_fail "SIGUSR1: the session started" "$(cat "$out.err")"
kill -USR1 $pid
upft_until 10 grep -q '^@ summary so far: ' "$out"
t_ok $? "SIGUSR1: the summary so far"
kill -INT $pid
wait $pid
t_is $? 0 "SIGUSR1: the run goes on and ends cleanly"
t_like "$(cat "$out")" '^@ summary: ' "SIGUSR1: the final summary at exit"
t_like "$(cat "$out")" '^walk: [1-9][0-9]* events' "SIGUSR1: walk counted"

upft_run --stdio --interval 0.3 --duration 1.2 -x "$C" 'walk n' -- "$C" loop 3 20
n=$(printf '%s\n' "$UPFT_OUT" | grep -c '^@ summary so far: ')
[ "$n" -ge 2 ] && [ "$n" -le 5 ]
t_ok $? "--interval 0.3 over 1.2 s: $n summaries so far (2 to 5)"
t_like "$UPFT_OUT" 'walk n=3' "--interval implies --summary, events are shown"

# 5. the summary and --metrics count the same: a process stopped (SIGSTOP) after a while,
#    the summary so far (SIGUSR1) against a scrape of the metrics
"$C" loop 3 20 >/dev/null 2>&1 </dev/null &
TP=$!
upft_wait_exec "$TP" "$C"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
out=$UPFT_TMP/metrics
"$UPFRONT" --json --summary-only --metrics "127.0.0.1:$port" -p "$TP" -x "$C" 'walk n' \
	'walk%return $retval' >"$out" 2>"$out.err" </dev/null &
pid=$!
upft_wait_tracing $pid || t_fail "metrics: the session started" "$(cat "$out.err")"
scrape() {
	curl -s --max-time 5 "http://127.0.0.1:$port/metrics" |
		sed -n "s/^upfront_events_total{probe=\"$1\"} //p;s/^upfront_duration_seconds_count{func=\"$2\"} //p"
}
upft_until 15 sh -c "[ \"\$(curl -s --max-time 5 http://127.0.0.1:$port/metrics | sed -n 's/^upfront_events_total{probe=\"walk\"} //p')\" -ge 40 ] 2>/dev/null"
kill -STOP "$TP"
prev=
for _ in $(seq 50); do		# until two scrapes 0.2 s apart agree: all drained
	now=$(scrape walk walk; scrape walk__return walk)
	[ -n "$now" ] && [ "$now" = "$prev" ] && break
	prev=$now
	sleep 0.2
done
kill -USR1 $pid
upft_until 10 grep -q '"final":false' "$out"
res=$(grep '"final":false' "$out" | head -1 | python3 -c '
import json, sys
s = json.loads(sys.stdin.read())["summary"]
p = {x["probe"]: x for x in s["probes"]}
print(p["walk"]["count"], p["walk__return"]["count"], p["walk__return"]["durations"][0]["count"])')
met=$(printf '%s\n' "$(scrape walk x)" "$(scrape walk__return x)" "$(scrape x walk)" | tr '\n' ' ')
t_is "$res " "$met" "summary so far and --metrics: the same counts (walk, walk__return, durations: $met)"
kill -CONT "$TP"
kill "$TP"
wait $pid
t_is $? 0 "metrics: the session ends with the process, exit 0"

# 6. bad input
upft_run --top 0 -x "$C" 'walk n'
t_is "$UPFT_RC" 2 "--top 0: exit 2"
t_like "$UPFT_ERR" "--top wants a number of values from 1 to 1000, not '0'" "--top 0: says what it wants"
upft_run --summary -x "$C" -D 'walk n'
t_is "$UPFT_RC" 2 "--summary with -D: exit 2"

t_done
