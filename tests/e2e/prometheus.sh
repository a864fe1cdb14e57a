#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# prometheus.sh - Debian's real Prometheus server scrapes upfront --metrics: upfront traces
# c/orders-O0 (process_order and process_order%return) on a loopback port; prometheus runs on
# another loopback port with its own config (scrape_interval 1s; 2 s times UPFT_TIMEOUT_SCALE in a TCG guest) and TSDB in a temporary
# directory; once it has scraped after the target finished, its HTTP API must give the counter
# as many calls as the target made, and the duration histogram's _count when calls are paired.
# The values are asked as each series' last sample of the last 5 minutes (last_over_time): a
# scrape that fails marks every series stale until one succeeds, and under qemu TCG beside other
# guests (5.10, load 11) the +Inf bucket and the quantile stayed empty for 30 s after _count
# had been found; the scrapes' own record (up, scrape_duration_seconds) is shown on a failure.
#
# Only 127.0.0.1; every wait is bounded; the trap ends upfront and prometheus.
. "$(dirname "$0")/lib.sh"

bin=$UPFT_TARGETS/c/orders-O0
[ -x "$bin" ] || t_bail "$bin is not built (tests/targets/build.sh)"
command -v prometheus >/dev/null 2>&1 || t_bail "prometheus is not installed (Debian package prometheus)"
command -v curl >/dev/null 2>&1 || t_bail "curl is not installed"
upft_need_root

up_pid= prom_pid=
# stop PID - SIGTERM, up to 10 s, then SIGKILL
stop() {
	[ -n "$1" ] && kill -0 "$1" 2>/dev/null || return 0
	kill -TERM "$1"
	for _ in $(seq 100); do kill -0 "$1" 2>/dev/null || break; sleep 0.1; done
	kill -KILL "$1" 2>/dev/null
	wait "$1" 2>/dev/null
}
stop_all() {
	stop "$up_pid"
	stop "$prom_pid"
	up_pid= prom_pid=
}
trap 'stop_all; upft_cleanup' EXIT
trap 'stop_all; upft_on_signal' INT TERM

free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# query_once PROMQL - the first sample's value of an instant query of the Prometheus API, or ""
query_once() {
	curl -s --max-time $((5 * ${UPFT_TIMEOUT_SCALE:-1})) -G \
		"http://127.0.0.1:$pport/api/v1/query" --data-urlencode "query=$1" |
		python3 -c '
import json, sys
try:
	r = json.load(sys.stdin)["data"]["result"]
	print(r[0]["value"][1] if r else "")
except Exception:
	print("")
'
}

# query PROMQL - the same, an empty answer asked again for up to 10 s (times
# UPFT_TIMEOUT_SCALE): under qemu TCG a query of a series the one before it had found came back
# empty now and then (the 6.1 and 6.12 guests)
query() {
	local v i
	for ((i = 0; i < 10 * ${UPFT_TIMEOUT_SCALE:-1}; i++)); do
		v=$(query_once "$1")
		[ -n "$v" ] && break
		sleep 1
	done
	printf '%s\n' "$v"
}

repeat=7
calls=$((2 * repeat))	# run_once() calls process_order twice
port=$(free_port)
pport=$(free_port)
while [ "$pport" = "$port" ]; do pport=$(free_port); done

"$UPFRONT" --stdio --metrics "127.0.0.1:$port" -x "$bin" process_order 'process_order%return' \
	-- sh -c '"$1" "$2" >"$3"; exec sleep 120' sh "$bin" "$repeat" "$UPFT_TMP/target.out" \
	>"$UPFT_TMP/events" 2>"$UPFT_TMP/up.err" &
up_pid=$!

# a scrape that times out marks every series of the target stale, and a query finds nothing
# until the next one succeeds: under TCG with other guests on the host, 1 s was too short (the
# 5.10, 6.1 and 6.12 guests: _count, the +Inf bucket, the lost events came back empty)
every=$((${UPFT_TIMEOUT_SCALE:-1} > 1 ? 2 * ${UPFT_TIMEOUT_SCALE:-1} : 1))s
cat >"$UPFT_TMP/prometheus.yml" <<EOF
global:
  scrape_interval: $every
  scrape_timeout: $every
  evaluation_interval: $every
scrape_configs:
  - job_name: upfront
    static_configs:
      - targets: ['127.0.0.1:$port']
EOF
prometheus --config.file="$UPFT_TMP/prometheus.yml" --storage.tsdb.path="$UPFT_TMP/tsdb" \
	--web.listen-address="127.0.0.1:$pport" --log.level=warn >"$UPFT_TMP/prom.log" 2>&1 &
prom_pid=$!

# the target ran all its calls (its last line is written when it ends them)
for _ in $(seq 300); do
	grep -q '^orders: ' "$UPFT_TMP/target.out" 2>/dev/null && break
	sleep 0.1
done
t_like "$(cat "$UPFT_TMP/target.out" 2>/dev/null)" '^orders: ' "the target made its calls" ||
	t_diag "$(cat "$UPFT_TMP/up.err")"
# upfront has shown them (its events are decoded by now), so a scrape from now on has them all
for _ in $(seq 100); do
	[ "$(grep -c ' process_order$' "$UPFT_TMP/events")" -ge "$calls" ] && break
	sleep 0.1
done
done_at=$(date +%s.%N)

# Prometheus is up and has scraped upfront after that (timestamp() is the sample's time)
scraped=
for _ in $(seq $((300 * ${UPFT_TIMEOUT_SCALE:-1}))); do
	ts=$(query_once 'timestamp(upfront_events_total{probe="process_order"})')
	if [ -n "$ts" ] && awk -v a="$ts" -v b="$done_at" 'BEGIN { exit !(a + 0 > b + 0) }'; then
		scraped=1
		break
	fi
	sleep 0.1
done
t_is "$scraped" 1 "prometheus scraped upfront after the target's calls (within 30 s, times UPFT_TIMEOUT_SCALE)" ||
	t_diag "$(tail -5 "$UPFT_TMP/prom.log")"

before=$t_failed
t_is "$(query 'max_over_time(up{job="upfront"}[5m])')" 1 "prometheus sees the target up"
t_is "$(query 'last_over_time(upfront_events_total{probe="process_order"}[5m])')" "$calls" \
	"prometheus: upfront_events_total{probe=\"process_order\"} is the $calls calls the target made"
t_is "$(query 'last_over_time(upfront_events_total{probe="process_order__return"}[5m])')" "$calls" \
	"prometheus: as many returns"
t_is "$(query 'sum(last_over_time(upfront_lost_events_total[5m]))')" 0 "prometheus: no lost events"
t_is "$(query 'last_over_time(upfront_duration_seconds_count{func="process_order"}[5m])')" "$calls" \
	"prometheus: the duration histogram's _count is the $calls paired calls"
t_is "$(query 'last_over_time(upfront_duration_seconds_bucket{func="process_order",le="+Inf"}[5m])')" \
	"$calls" "prometheus: its +Inf bucket"
t_like "$(query 'histogram_quantile(0.5, last_over_time(upfront_duration_seconds_bucket{func="process_order"}[5m]))')" \
	'^[0-9.e+-]+$' "prometheus: histogram_quantile() of it is a number"
if [ "$t_failed" -gt "$before" ]; then
	for q in 'count_over_time(up{job="upfront"}[5m])' 'sum_over_time(up{job="upfront"}[5m])' \
		 'max_over_time(scrape_duration_seconds{job="upfront"}[5m])'; do
		t_diag "$q: $(query_once "$q")"
	done
	t_diag "upfront now: $(curl -s --max-time 10 "http://127.0.0.1:$port/metrics" | grep -c '^upfront_') series lines"
	t_diag "$(tail -5 "$UPFT_TMP/prom.log")"
fi

stop "$up_pid"
up_pid=
t_like "$(cat "$UPFT_TMP/up.err")" "^upfront: $((2 * calls)) events, 0 lost$" "upfront's summary"
stop "$prom_pid"
prom_pid=

t_done
