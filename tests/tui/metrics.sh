#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# metrics.sh - --metrics beside the curses view: the view draws, the endpoint counts the
# same events, q ends both (the port is closed after), nothing of CMD's output on the screen
. "$(dirname "$0")/lib.sh"

bin=$UPFT_TARGETS/c/orders-O0
[ -x "$bin" ] || t_bail "$bin is not built (tests/targets/build.sh)"
command -v curl >/dev/null 2>&1 || t_bail "curl is not installed"
command -v tmux >/dev/null 2>&1 || t_bail "tmux is not installed"
upft_need_root

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
repeat=4
tui_start 160 30 --metrics "127.0.0.1:$port" -x "$bin" 'process_order id=o->id' audit_order \
	-- sh -c '"$1" "$2"; exec sleep 60' sh "$bin" "$repeat"

tui_wait 'probes 2' 15 || t_fail "the view starts" "$(tui_screen)"
body=
for _ in $(seq 150); do
	body=$(curl -s --max-time 5 "http://127.0.0.1:$port/metrics")
	printf '%s\n' "$body" | grep -q "^upfront_events_total{probe=\"audit_order\"} $repeat$" && break
	sleep 0.1
done
t_like "$body" "^upfront_events_total\{probe=\"process_order\"\} $((2 * repeat))$" \
	"the endpoint counts process_order while the view runs"
t_like "$body" "^upfront_events_total\{probe=\"audit_order\"\} $repeat$" \
	"and audit_order"
tui_wait " total $((3 * repeat)) " 10
t_like "$(tui_screen | head -1)" " total $((3 * repeat)) " "the view's total is the same"
t_unlike "$(tui_screen)" '^orders: ' "CMD's output is not on the screen"

tui_keys q
t_is "$(tui_wait_exit 15)" 0 "q ends the session, exit 0"
curl -s --max-time 5 -o /dev/null "http://127.0.0.1:$port/metrics"
t_is "$?" 7 "the port is closed after q"

t_done
