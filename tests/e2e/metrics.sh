#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# metrics.sh - --metrics ADDR:PORT on a loopback port while tracing c/orders-O0: the
# Prometheus text and OpenMetrics answers line by line (curl), the label and its cap, HTTP
# errors, and a bad address or a port in use refused with one line, exit 2, nothing installed
#
# Only 127.0.0.1 is used; every wait is bounded; the trap ends what the test started.
. "$(dirname "$0")/lib.sh"

bin=$UPFT_TARGETS/c/orders-O0
[ -x "$bin" ] || t_bail "$bin is not built (tests/targets/build.sh)"
command -v curl >/dev/null 2>&1 || t_bail "curl is not installed"
upft_need_root

up_pid=
stop_all() {
	if [ -n "$up_pid" ] && kill -0 "$up_pid" 2>/dev/null; then
		kill -TERM "$up_pid"
		for _ in $(seq 100); do kill -0 "$up_pid" 2>/dev/null || break; sleep 0.1; done
		kill -KILL "$up_pid" 2>/dev/null
	fi
	wait 2>/dev/null
	up_pid=
}
trap 'stop_all; upft_cleanup' EXIT
trap 'stop_all; upft_on_signal' INT TERM

# free_port - a TCP port on 127.0.0.1 that nobody listens on now
free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# scrape [CURL-ARGS...] - GET /metrics: the body in $body, the headers in $headers
scrape() {
	body=$(curl -s --max-time 5 -D "$UPFT_TMP/headers" "$@" "http://127.0.0.1:$port/metrics")
	headers=$(tr -d '\r' <"$UPFT_TMP/headers")
}

# wait_for ERE - scrape (up to 15 s) until a line of the text format matches ERE
wait_for() {
	for _ in $(seq 150); do
		scrape
		printf '%s\n' "$body" | grep -Eq -- "$1" && return 0
		sleep 0.1
	done
	return 1
}

repeat=3
port=$(free_port)
# the orders run once the probes are live (-- CMD); the shell then waits to be ended
"$UPFRONT" --stdio --metrics "127.0.0.1:$port" --metrics-label process_order:id \
	-x "$bin" 'process_order id=o->id' 'process_order%return' audit_order \
	-- sh -c '"$1" "$2" >/dev/null; exec sleep 60' sh "$bin" "$repeat" \
	>"$UPFT_TMP/events" 2>"$UPFT_TMP/err" &
up_pid=$!

wait_for '^upfront_events_total\{probe="audit_order"\} 3$' ||
	t_fail "the counters reach the calls the target made" "$body" "$(cat "$UPFT_TMP/err")"

# --- Prometheus text format 0.0.4 (no Accept header) -----------------------------------------
scrape
t_like "$headers" '^HTTP/1\.[01] 200' "GET /metrics answers 200"
t_like "$headers" '^Content-Type: text/plain; version=0\.0\.4; charset=utf-8$' \
	"the text format's Content-Type"
ncpu=$(getconf _NPROCESSORS_CONF)
want="# HELP upfront_events_total Events of each probe (and -e event) that upfront decoded.
# TYPE upfront_events_total counter
upfront_events_total{probe=\"process_order__return\"} $((2 * repeat))
upfront_events_total{probe=\"audit_order\"} $repeat
upfront_events_total{probe=\"process_order\",id=\"101\"} $repeat
upfront_events_total{probe=\"process_order\",id=\"102\"} $repeat
# HELP upfront_lost_events_total Events the kernel's ring buffer of each CPU lost, as far as it told.
# TYPE upfront_lost_events_total counter"
for cpu in $(seq 0 $((ncpu - 1))); do
	want+=$'\n'"upfront_lost_events_total{cpu=\"$cpu\"} 0"
done
t_is "$(printf '%s\n' "$body" | grep -v '^upfront_duration\|^# [A-Z]* upfront_duration')" \
	"$want" "the text format: events per probe and label value, lost events per CPU"

# durations of process_order..process_order%return: a histogram per function
t_like "$body" '^# TYPE upfront_duration_seconds histogram$' "a histogram family for durations"
t_like "$body" "^upfront_duration_seconds_count\{func=\"process_order\"\} $((2 * repeat))$" \
	"the histogram counts every paired call"
t_like "$body" "^upfront_duration_seconds_bucket\{func=\"process_order\",le=\"\+Inf\"\} $((2 * repeat))$" \
	"its +Inf bucket holds every call"
t_is "$(printf '%s\n' "$body" | grep -c '^upfront_duration_seconds_bucket{func="process_order",')" \
	23 "22 bounds and +Inf"
t_is "$(printf '%s\n' "$body" | sed -n 's/^upfront_duration_seconds_bucket{func="process_order",le="[^"]*"} //p' |
	sort -n -c 2>&1 && echo sorted)" sorted "the buckets are cumulative"
t_like "$body" '^upfront_duration_seconds_sum\{func="process_order"\} [0-9]+(\.[0-9]+)?$' "a _sum"
t_unlike "$body" '^upfront_duration_seconds_count\{func="audit_order"' \
	"no histogram for a function without its %return"

# --- OpenMetrics, as Prometheus asks for it --------------------------------------------------
scrape -H 'Accept: application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1'
t_like "$headers" '^Content-Type: application/openmetrics-text; version=1\.0\.0; charset=utf-8$' \
	"OpenMetrics when the Accept header asks for it"
t_is "$(printf '%s\n' "$body" | sed -n '1,3p')" \
"# TYPE upfront_events counter
# HELP upfront_events Events of each probe (and -e event) that upfront decoded.
upfront_events_total{probe=\"process_order__return\"} $((2 * repeat))" \
	"OpenMetrics: the family without _total, its samples with it"
t_is "$(printf '%s\n' "$body" | tail -n 1)" "# EOF" "OpenMetrics ends with # EOF"

# --- HTTP ------------------------------------------------------------------------------------
code=$(curl -s --max-time 5 -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/")
t_is "$code" 404 "a path other than /metrics is 404"
code=$(curl -s --max-time 5 -o /dev/null -w '%{http_code}' -X POST "http://127.0.0.1:$port/metrics")
t_is "$code" 405 "POST is 405"
code=$(curl -s --max-time 5 -o /dev/null -w '%{http_code}' -I "http://127.0.0.1:$port/metrics")
t_is "$code" 200 "HEAD is 200"

# --- a port in use: one line, exit 2, nothing installed --------------------------------------
# (its pid names its instance and group: upfront_PID)
bash -c 'echo $$ >"$1"; shift; exec "$@"' sh "$UPFT_TMP/pid" "$UPFRONT" --stdio \
	--metrics "127.0.0.1:$port" -x "$bin" process_order -- true >/dev/null 2>"$UPFT_TMP/err2"
rc=$?
t_is "$rc" 2 "a port in use exits 2"
t_is "$(cat "$UPFT_TMP/err2")" \
	"upfront: --metrics: cannot listen on 127.0.0.1:$port: Address already in use" \
	"a port in use is one line that says so"
pid=$(cat "$UPFT_TMP/pid")
t_is "$(ls -d "$UPFT_TRACEFS/instances/upfront_$pid" 2>/dev/null; \
	grep "upfront_$pid/" "$UPFT_TRACEFS/uprobe_events")" "" \
	"a port in use leaves no instance or probe behind"

# --- the session ends: clean exit, the port closed -------------------------------------------
kill -TERM "$up_pid"
for _ in $(seq 100); do kill -0 "$up_pid" 2>/dev/null || break; sleep 0.1; done
wait "$up_pid"
t_is "$?" 0 "upfront --metrics exits 0 on SIGTERM"
up_pid=
t_like "$(cat "$UPFT_TMP/err")" "^upfront: $((4 * repeat + repeat)) events, 0 lost$" "the summary"
t_like "$(cat "$UPFT_TMP/events")" 'process_order id=101$' "events are shown beside the metrics"
curl -s --max-time 5 -o /dev/null "http://127.0.0.1:$port/metrics"
t_is "$?" 7 "the port is closed after the session"

# --- beside --json -o FILE: the same events counted --------------------------------------------
port=$(free_port)
"$UPFRONT" --json -o "$UPFT_TMP/events.json" --metrics "127.0.0.1:$port" -x "$bin" \
	'process_order id=o->id' -- sh -c '"$1" "$2" >/dev/null; exec sleep 60' sh "$bin" 5 \
	>/dev/null 2>"$UPFT_TMP/err" &
up_pid=$!
wait_for '^upfront_events_total\{probe="process_order"\} 10$'
t_like "$body" '^upfront_events_total\{probe="process_order"\} 10$' "--json -o FILE --metrics: counted"
stop_all
t_is "$(grep -c '"probe":"process_order"' "$UPFT_TMP/events.json")" 10 \
	"--json -o FILE --metrics: as many JSON lines in FILE"

# --- bad input -------------------------------------------------------------------------------
for bad in 127.0.0.1 127.0.0.1:0 127.0.0.1:65536 ::1:9100 127.0.0.1:http; do
	upft_run --metrics "$bad" -x "$bin" process_order -- true
	t_is "$UPFT_RC" 2 "--metrics $bad exits 2"
	t_is "$(printf '%s\n' "$UPFT_ERR" | wc -l)" 1 "--metrics $bad: one line"
	t_like "$UPFT_ERR" "^upfront: --metrics wants ADDR:PORT .*not '$bad'" \
		"--metrics $bad names what is wrong"
done
upft_run --metrics "127.0.0.1:$port" --metrics-label process_order:nope -x "$bin" \
	'process_order id=o->id' -- true
t_is "$UPFT_RC" 2 "--metrics-label with an unknown argument exits 2"
t_is "$UPFT_ERR" "upfront: --metrics-label: probe 'process_order' has no argument 'nope'; arguments: id" \
	"--metrics-label names the arguments there are"
upft_run --metrics-label process_order:id -x "$bin" 'process_order id=o->id' -- true
t_is "$UPFT_RC" 2 "--metrics-label without --metrics exits 2"
upft_run --metrics "127.0.0.1:$port" -x "$bin" -D process_order
t_is "$UPFT_RC" 2 "--metrics outside trace mode exits 2"
t_like "$UPFT_ERR" "only for trace mode" "--metrics outside trace mode says so"

t_done
