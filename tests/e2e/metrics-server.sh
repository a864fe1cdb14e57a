#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# metrics-server.sh - the --metrics server under a slowloris client and where it listens:
# 20 connections that trickle a header line every 0.4 s (the idle timeout restarted with each
# line: they held every slot, and a scrape waited 30 s) do not keep a scrape waiting more than
# the 3 s a connection may last; ":PORT" listens on the loopback addresses only, IPv4 and
# IPv6 (it was 0.0.0.0 only); "[::]:PORT" on every address, IPv4 too.
. "$(dirname "$0")/lib.sh"
upft_need_root
command -v curl >/dev/null 2>&1 || t_bail "curl is not installed"
command -v ss >/dev/null 2>&1 || t_bail "ss (iproute2) is not installed"

C=$UPFT_TARGETS/c/calls-O2
[ -x "$C" ] || t_bail "targets not built (tests/targets/build.sh $UPFT_TARGETS)"

up_pid= slow_pid=
stop_all() {
	[ -n "$slow_pid" ] && kill "$slow_pid" 2>/dev/null
	[ -n "$up_pid" ] && kill -INT "$up_pid" 2>/dev/null
	wait 2>/dev/null
	up_pid= slow_pid=
}
trap 'stop_all; upft_cleanup' EXIT
trap 'stop_all; upft_on_signal' INT TERM

free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# start LISTEN - a session serving metrics on LISTEN; waits until it listens
start() {
	"$UPFRONT" --stdio --metrics "$1" -x "$C" 'walk n' -- "$C" loop 3 100 \
		>/dev/null 2>"$UPFT_TMP/err" </dev/null &
	up_pid=$!
	upft_until 30 sh -c "ss -ltnH 'sport = :$port' | grep -q LISTEN" ||
		t_bail "the metrics server did not start: $(cat "$UPFT_TMP/err")"
}

# listening - the local addresses of the sockets listening on $port, sorted, one line
listening() {
	ss -ltnH "sport = :$port" | awk '{print $4}' | sort | paste -sd' '
}

port=$(free_port)
start ":$port"
t_is "$(listening)" "127.0.0.1:$port [::1]:$port" ":PORT listens on 127.0.0.1 and ::1 only"
t_like "$(curl -s --max-time 5 "http://[::1]:$port/metrics")" '^# TYPE upfront_events_total counter' \
	":PORT: a scrape over IPv6 (::1)"

# slowloris: 20 connections, each a header line every 0.4 s for 30 s
python3 - "$port" <<'PY' &
import socket, sys, time
port = int(sys.argv[1])
socks = []
for i in range(20):
    try:
        s = socket.create_connection(("127.0.0.1", port), timeout=2)
        s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\n")
        socks.append(s)
    except OSError:
        pass
end = time.time() + 30
while time.time() < end:
    for s in list(socks):
        try:
            s.sendall(b"X-Slow: 1\r\n")
        except OSError:
            socks.remove(s)
    time.sleep(0.4)
PY
slow_pid=$!
sleep 1
t0=$(date +%s%N)
body=$(curl -s --max-time 20 "http://127.0.0.1:$port/metrics")
ms=$((($(date +%s%N) - t0) / 1000000))
t_like "$body" '^# TYPE upfront_events_total counter' "a scrape during the slowloris is answered"
# (times UPFT_TIMEOUT_SCALE where the CPU is emulated: scripts/arm64/guest-tests)
t_ok $((ms < 6000 * ${UPFT_TIMEOUT_SCALE:-1} ? 0 : 1)) "... within 6 s ($ms ms)"
kill "$slow_pid" 2>/dev/null
wait "$slow_pid" 2>/dev/null
slow_pid=
kill -INT "$up_pid"
wait "$up_pid"
up_pid=

# [::]:PORT: every address, IPv4 too
port=$(free_port)
start "[::]:$port"
t_is "$(listening)" "*:$port" "[::]:PORT listens on every address (one socket, IPv4 and IPv6)"
t_like "$(curl -s --max-time 5 "http://127.0.0.1:$port/metrics")" '^# TYPE upfront_events_total counter' \
	"[::]:PORT: a scrape over IPv4"
t_done
