# SPDX-License-Identifier: GPL-2.0-or-later
# lib.sh - sourced by the TUI tests: the e2e helpers plus driving upfront in tmux
#
#	. "$(dirname "$0")/lib.sh"
#	tui_build_spin			# $SPIN: the quiet test target (tests/tui/spin.c)
#	tui_start 160 40 -x "$SPIN" 'work i' -- "$SPIN" 100 50
#	tui_wait 'probes 1' 10 || t_fail ...
#	tui_keys q
#
# The view runs in a private tmux server (-L), killed by the EXIT trap with everything in it.

. "$(dirname "${BASH_SOURCE[0]}")/../e2e/lib.sh"

# the view shows UTF-8 text as text only in a UTF-8 locale (robust.sh, view.sh): the tests set
# one, not the caller (a kernel-matrix guest's environment has no LANG)
export LC_ALL=C.UTF-8

TUI_SOCK=upft_tui$$
TUI_SES=upft

tmux_() {
	tmux -L "$TUI_SOCK" "$@"
}

# tui_kill_server - kill the tmux server and wait until it is gone: a new-session sent to a
# server still exiting fails ("server exited unexpectedly", 4 times in 30 on a loaded machine)
tui_kill_server() {
	local pid i
	pid=$(tmux_ display -p '#{pid}' 2>/dev/null)
	tmux_ kill-server 2>/dev/null
	for ((i = 0; i < 100; i++)); do
		[ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || return 0
		sleep 0.05
	done
}

tui_cleanup() {
	tmux_ kill-server 2>/dev/null
	[ -n "$TUI_BG" ] && kill "$TUI_BG" 2>/dev/null
	upft_cleanup
}
trap tui_cleanup EXIT

# tui_build_spin - compile tests/tui/spin.c (at -O0, frame pointers) into $SPIN
tui_build_spin() {
	command -v tmux >/dev/null || t_bail "tmux is not installed (apt-get install tmux)"
	SPIN=$UPFT_TMP/spin
	gcc -g -O0 -fno-omit-frame-pointer -o "$SPIN" "$UPFT_SRCDIR/tests/tui/spin.c" ||
		t_bail "cannot build tests/tui/spin.c"
}

# tui_start COLS ROWS UPFRONT-ARGS... - run upfront in a COLSxROWS terminal; its exit status
# goes to $UPFT_TMP/rc, its stderr to $UPFT_TMP/err
tui_start() {
	local cols=$1 rows=$2 cmd a
	shift 2
	cmd="exec 2>$UPFT_TMP/err; ${TUI_ENV:-} $(printf '%q' "$UPFRONT")"
	for a in "$@"; do
		cmd+=" $(printf '%q' "$a")"
	done
	cmd+="; echo \$? >$UPFT_TMP/rc; sleep 600"
	rm -f "$UPFT_TMP/rc"
	tmux_ -f /dev/null new-session -d -s "$TUI_SES" -x "$cols" -y "$rows" "bash -c $(printf '%q' "$cmd")"
}

# tui_screen - the screen as text
tui_screen() {
	tmux_ capture-pane -t "$TUI_SES" -p
}

# tui_keys KEY... - tmux send-keys (names like Enter, Escape, Up; or literal text with -l)
tui_keys() {
	tmux_ send-keys -t "$TUI_SES" "$@"
}

# SECONDS of the waits below are bounds for this machine, times UPFT_TIMEOUT_SCALE where the
# CPU is emulated (kernel-matrix's x86 guests 3, the arm64 guest 10: under arm64 TCG the
# view of reach-O2 and of libc had not opened in 15 s)
tui_secs() {
	echo $(($1 * ${UPFT_TIMEOUT_SCALE:-1}))
}

# tui_wait ERE SECONDS - wait until a line of the screen matches ERE; 1 on timeout
tui_wait() {
	local end=$(($(date +%s) + $(tui_secs "$2")))
	while [ "$(date +%s)" -le "$end" ]; do
		tui_screen | grep -Eq -- "$1" && return 0
		sleep 0.1
	done
	return 1
}

# tui_wait_gone ERE SECONDS - wait until no line of the screen matches ERE; 1 on timeout
tui_wait_gone() {
	local end=$(($(date +%s) + $(tui_secs "$2")))
	while [ "$(date +%s)" -le "$end" ]; do
		tui_screen | grep -Eq -- "$1" || return 0
		sleep 0.1
	done
	return 1
}

# tui_wait_exit SECONDS - wait until upfront has exited; prints its exit status
tui_wait_exit() {
	local end=$(($(date +%s) + $(tui_secs "$1")))
	while [ "$(date +%s)" -le "$end" ]; do
		[ -s "$UPFT_TMP/rc" ] && { cat "$UPFT_TMP/rc"; return 0; }
		sleep 0.1
	done
	echo timeout
	return 1
}

# tui_pid - the pid of upfront running in the pane
tui_pid() {
	local sh
	sh=$(tmux_ display -p -t "$TUI_SES" '#{pane_pid}')
	pgrep -P "$sh" -x upfront | head -1
}

# tui_header_total - the "total N" of the header line
tui_header_total() {
	tui_screen | sed -n '1s/.* total \([0-9]*\).*/\1/p'
}
