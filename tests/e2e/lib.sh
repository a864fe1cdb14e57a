# SPDX-License-Identifier: GPL-2.0-or-later
# lib.sh - sourced by the end-to-end shell tests: paths, TAP output, tracefs cleanup, helpers
#
# A test does:
#	. "$(dirname "$0")/lib.sh"
#	upft_run -x "$UPFT_TARGETS/c/orders-O0" -D 'process_order o->id'
#	t_is "$UPFT_RC" 0 "-D exits 0"
#	t_like "$UPFT_OUT" '^p:' "-D prints a definition"
#	t_done
#
# Everything a test adds to tracefs goes into the group "$UPFT_GROUP" (upft_t<pid>) or an
# instance whose name starts with it; the trap removes both on EXIT, INT and TERM.
#
# Environment: UPFT_BUILDDIR (where upfront was built; default the source tree),
# UPFRONT (the binary), UPFT_TARGETS (built test targets; default BUILDDIR/tests/build).

UPFT_SRCDIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
UPFT_BUILDDIR=${UPFT_BUILDDIR:-$UPFT_SRCDIR}
UPFRONT=${UPFRONT:-$UPFT_BUILDDIR/upfront}
UPFT_TARGETS=${UPFT_TARGETS:-$UPFT_BUILDDIR/tests/build}
UPFT_TRACEFS=${UPFT_TRACEFS:-/sys/kernel/tracing}
UPFT_GROUP=upft_t$$
UPFT_TEST=$(basename "$0")
UPFT_TMP=$(mktemp -d "${TMPDIR:-/tmp}/upft_t$$.XXXXXX")
# the machine the targets are built for and upfront probes here, as upfront names it (its
# arch_ops.name, tests/casearch.py): what a test expects in registers and instructions
case $(uname -m) in
x86_64) UPFT_ARCH=x86-64 ;;
aarch64) UPFT_ARCH=arm64 ;;
*) UPFT_ARCH=$(uname -m) ;;
esac
# Debian's multiarch directory of the machine's libraries (/lib/$UPFT_MULTIARCH/libc.so.6)
UPFT_MULTIARCH=$(uname -m)-linux-gnu
# glibc's first symbol version on the machine (fopen@@GLIBC_2.2.5 on x86-64, @@GLIBC_2.17 on
# arm64; pthread_kill@VERSION is the old one kept beside pthread_kill@@GLIBC_2.34), and the
# same as an event name's suffix
case $UPFT_ARCH in arm64) UPFT_GLIBC_BASE=GLIBC_2.17 ;; *) UPFT_GLIBC_BASE=GLIBC_2.2.5 ;; esac
UPFT_GLIBC_BASE_EV=${UPFT_GLIBC_BASE//./_}

t_n=0
t_failed=0

# --- TAP -------------------------------------------------------------------------------------

# t_ok COND-STATUS DESC - report one test: t_ok $? "what"; its status is the test's, so
# "t_ok $? what || t_diag ..." (and t_is, t_like ... || t_diag) shows why it failed
t_ok() {
	t_n=$((t_n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $t_n - $UPFT_TEST: $2"
	else
		t_failed=$((t_failed + 1))
		echo "not ok $t_n - $UPFT_TEST: $2"
		return 1
	fi
}

# t_pass DESC / t_fail DESC [DIAG...]
t_pass() {
	t_ok 0 "$1"
}

t_fail() {
	local d=$1
	shift
	t_ok 1 "$d"
	t_diag "$@"
	return 1
}

# t_diag LINE... - print diagnostics as TAP comments (each line prefixed by "# ")
t_diag() {
	local l
	for l in "$@"; do
		printf '%s\n' "$l" | sed 's/^/#   /'
	done
}

# t_is GOT WANT DESC - exact string comparison
t_is() {
	if [ "$1" = "$2" ]; then
		t_pass "$3"
	else
		t_fail "$3" "got:  $1" "want: $2"
	fi
}

# t_like TEXT ERE DESC - TEXT has a line matching the extended regex ERE
t_like() {
	if printf '%s\n' "$1" | grep -Eq -- "$2"; then
		t_pass "$3"
	else
		t_fail "$3" "no line matches: $2" "text: $1"
	fi
}

# t_unlike TEXT ERE DESC - no line of TEXT matches ERE
t_unlike() {
	if printf '%s\n' "$1" | grep -Eq -- "$2"; then
		t_fail "$3" "a line matches: $2" "text: $1"
	else
		t_pass "$3"
	fi
}

# t_done - end of the test: exit status 1 when anything failed
t_done() {
	[ "$t_failed" -eq 0 ]
	exit $?
}

# t_bail MSG - a missing prerequisite: one failed test, then stop (CI fails, never skips)
t_bail() {
	t_fail "prerequisite: $1"
	exit 1
}

# upft_need_targets BINARY... - bail out unless every test target named is built
upft_need_targets() {
	local b

	for b in "$@"; do
		[ -x "$b" ] || t_bail "targets not built (tests/targets/build.sh $UPFT_TARGETS)"
	done
}

# --- running upfront -------------------------------------------------------------------------

# upft_run ARGS... - run upfront; sets UPFT_RC, UPFT_OUT (stdout), UPFT_ERR (stderr).
# UPFT_TIMEOUT (seconds, default 60): SIGINT, then SIGKILL 5 s later.
upft_run() {
	timeout -s INT -k 5 "${UPFT_TIMEOUT:-60}" "$UPFRONT" "$@" \
		>"$UPFT_TMP/out" 2>"$UPFT_TMP/err" </dev/null
	UPFT_RC=$?
	UPFT_OUT=$(cat "$UPFT_TMP/out")
	UPFT_ERR=$(cat "$UPFT_TMP/err")
	return 0
}

# upft_until SECONDS CMD... - run CMD every 0.1 s until it succeeds; 1 when it still fails
# after SECONDS (for what another process does in its own time: wait for it, never sleep)
upft_until() {
	local i n=$(($1 * 10))
	shift
	for ((i = 0; i < n; i++)); do
		"$@" && return 0
		sleep 0.1
	done
	"$@"
}

# upft_wait_tracing PID [SECONDS] - wait (default 30 s) until upfront PID's trace session
# records: the events of its group enabled in its instance and its tracing_on 1 (the last
# step; its line in uprobe_events comes before, and a new instance's tracing_on is 1 until
# upfront turns it off). 1 on timeout.
upft_wait_tracing() {
	local i d=$UPFT_TRACEFS/instances/upfront_$1
	for ((i = 0; i < ${2:-30} * 10; i++)); do
		[ "$(cat "$d/events/upfront_$1/enable" 2>/dev/null)" = 1 ] &&
			[ "$(cat "$d/tracing_on" 2>/dev/null)" = 1 ] && return 0
		sleep 0.1
	done
	return 1
}

# upft_wait_exec PID PATH [SECONDS] - wait (default 30 s) until process PID runs PATH (a
# background job is the shell's fork until it has exec'd). 1 on timeout.
upft_wait_exec() {
	local i exe
	exe=$(readlink -f "$2")
	for ((i = 0; i < ${3:-30} * 10; i++)); do
		[ "$(readlink "/proc/$1/exe" 2>/dev/null)" = "$exe" ] && return 0
		sleep 0.1
	done
	return 1
}

# upft_start_held ARGS... - start upfront in the background under a parent that, once it has
# exited, leaves it unreaped (a zombie) until upft_release: its pid stays taken, so no
# concurrent run takes what a --keep session of that pid left for a dead session's (a kept
# session has no lock file: the pid rule) while the test looks. Sets UPFT_PID.
# upft_wait_held - wait until it has exited; sets UPFT_RC, UPFT_OUT, UPFT_ERR as upft_run
# upft_run_held ARGS... - both
# upft_release - let it be reaped (its pid free again)
UPFT_HOLD_PY='
import os, signal, sys
signal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGUSR1])
pid = os.fork()
if pid == 0:
    signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGUSR1])
    os.execv(sys.argv[2], sys.argv[2:])
with open(sys.argv[1] + ".pid", "w") as f:
    f.write("%d\n" % pid)
info = os.waitid(os.P_PID, pid, os.WEXITED | os.WNOWAIT)
rc = info.si_status if info.si_code == os.CLD_EXITED else 128 + info.si_status
with open(sys.argv[1] + ".tmp", "w") as f:
    f.write("%d\n" % rc)
os.rename(sys.argv[1] + ".tmp", sys.argv[1] + ".rc")
signal.sigtimedwait([signal.SIGUSR1], 300)
os.waitpid(pid, 0)
'
upft_start_held() {
	local h=$UPFT_TMP/held i
	rm -f "$h.pid" "$h.rc"
	python3 -c "$UPFT_HOLD_PY" "$h" "$UPFRONT" "$@" >"$UPFT_TMP/out" 2>"$UPFT_TMP/err" </dev/null &
	UPFT_HELD=$!
	UPFT_PID=
	for ((i = 0; i < 300; i++)); do
		[ -s "$h.pid" ] && UPFT_PID=$(cat "$h.pid") && return 0
		sleep 0.1
	done
	return 1
}

upft_wait_held() {
	local h=$UPFT_TMP/held i
	UPFT_RC=timeout
	for ((i = 0; i < ${UPFT_TIMEOUT:-60} * 10; i++)); do
		[ -s "$h.rc" ] && { UPFT_RC=$(cat "$h.rc"); break; }
		kill -0 "$UPFT_HELD" 2>/dev/null || break
		sleep 0.1
	done
	UPFT_OUT=$(cat "$UPFT_TMP/out")
	UPFT_ERR=$(cat "$UPFT_TMP/err")
}

upft_run_held() {
	upft_start_held "$@" && upft_wait_held
}

upft_release() {
	kill -USR1 "$UPFT_HELD" 2>/dev/null
	wait "$UPFT_HELD" 2>/dev/null
}

# upft_stalled_burst OUT BINARY N ARGS... - upfront ARGS -x BINARY 'walk n' on "BINARY walk N"
# (a burst of calls, then the program idles) with its output read into OUT only once
# upft_burst_read says so: the events queue up in upfront meanwhile. Returns when the burst has
# ended (bails when upfront does not start or the burst does not end in 60 s, times
# UPFT_TIMEOUT_SCALE: a TCG guest is that much slower); sets UPFT_PID to upfront's pid. The
# caller's environment reaches upfront (UPFRONT_QUEUE_PAGES=4 upft_stalled_burst ...).
upft_stalled_burst() {
	local out=$1 bin=$2 n=$3 scale=${UPFT_TIMEOUT_SCALE:-1}
	shift 3
	rm -f "$UPFT_TMP/burst.pid" "$UPFT_TMP/burst.walked" "$UPFT_TMP/burst.read"
	sh -c 'echo $$ >"$1"; shift; exec "$@"' sh "$UPFT_TMP/burst.pid" "$UPFRONT" "$@" \
		-x "$bin" 'walk n' -- sh -c '"$1" walk "$2" >/dev/null 2>&1; : >"$3"; exec sleep 600' \
		sh "$bin" "$n" "$UPFT_TMP/burst.walked" </dev/null |
		(while [ ! -e "$UPFT_TMP/burst.read" ]; do sleep 0.1; done; cat >"$out") &
	upft_until 10 test -s "$UPFT_TMP/burst.pid" || t_bail "upfront did not start"
	UPFT_PID=$(cat "$UPFT_TMP/burst.pid")
	upft_until $((60 * scale)) test -e "$UPFT_TMP/burst.walked" || t_bail "walk($n) did not end"
}
upft_burst_read() {
	: >"$UPFT_TMP/burst.read"
}

# upft_perf_probe ARGS... - perf probe ARGS (the reference for -D, -L, -V) with HOME in the
# test's directory: perf adds the binaries it reads SDT notes from to ~/.debug's build-id cache
# and fails ("Failed to add events") where HOME is read-only (scripts/kernel-matrix's guests)
upft_perf_probe() {
	HOME=$UPFT_TMP perf probe "$@"
}

# upft_json_arg JSON-LINES N KEY - print args.KEY of the N-th (1-based) event as JSON
upft_json_arg() {
	printf '%s\n' "$1" | python3 -c '
import json, sys
n, key = int(sys.argv[1]), sys.argv[2]
evs = [json.loads(l) for l in sys.stdin if l.strip().startswith("{")]
if n > len(evs) or key not in evs[n - 1].get("args", {}):
	sys.exit(1)
print(json.dumps(evs[n - 1]["args"][key], ensure_ascii=False))
' "$2" "$3"
}

# upft_json_count JSON-LINES - number of events
upft_json_count() {
	printf '%s\n' "$1" | grep -c '^{'
}

# --- tracefs ---------------------------------------------------------------------------------

# upft_need_root - bail out unless we can write tracefs
upft_need_root() {
	[ "$(id -u)" -eq 0 ] || t_bail "root is needed to write $UPFT_TRACEFS"
	[ -w "$UPFT_TRACEFS/uprobe_events" ] ||
		t_bail "$UPFT_TRACEFS/uprobe_events is not writable (mount -t tracefs nodev $UPFT_TRACEFS)"
}

# upft_kernel NAME - row NAME of the kernel capability table (upfront --kernel-features, with
# UPFRONT_KERNEL_FEATURES applied): yes, no or a number. Expectations follow the kernel:
#	[ "$(upft_kernel char)" = yes ] && want='char\[64\]' || want='u8\[64\]'
upft_kernel() {
	"$UPFRONT" --kernel-features | awk -v n="$1" '$1 == n { print $2; found = 1 }
		END { if (!found) print "?" }'
}

# upft_define LINE - add a uprobe_events line, its group replaced by $UPFT_GROUP; prints the
# event's GROUP/EVENT
upft_define() {
	local line=$1 head rest ev
	head=${line%% *}
	rest=${line#* }
	ev=${head#*:}
	ev=${ev##*/}
	printf '%s\n' "${head%%:*}:$UPFT_GROUP/$ev $rest" >>"$UPFT_TRACEFS/uprobe_events" || return 1
	echo "$UPFT_GROUP/$ev"
}

# upft_instance NAME - create the instance $UPFT_GROUP_NAME; prints its directory
upft_instance() {
	local d=$UPFT_TRACEFS/instances/${UPFT_GROUP}_$1
	mkdir "$d" || return 1
	echo "$d"
}

# upft_groups - the uprobe groups that exist now, one per line
upft_groups() {
	sed -n 's/^[pr]:\([^/ ]*\)\/.*/\1/p' "$UPFT_TRACEFS/uprobe_events" 2>/dev/null | sort -u
}

# upft_cleanup - remove our instances, then our events (disabled first); called by the trap
upft_cleanup() {
	local d
	for d in "$UPFT_TRACEFS"/instances/"$UPFT_GROUP"*; do
		[ -d "$d" ] || continue
		[ -e "$d/events/$UPFT_GROUP/enable" ] && echo 0 >"$d/events/$UPFT_GROUP/enable"
		rmdir "$d" 2>/dev/null
	done
	if [ -d "$UPFT_TRACEFS/events/$UPFT_GROUP" ]; then
		echo 0 >"$UPFT_TRACEFS/events/$UPFT_GROUP/enable" 2>/dev/null
		grep -E "^[pr]:$UPFT_GROUP/" "$UPFT_TRACEFS/uprobe_events" 2>/dev/null |
			while read -r l _; do
				l=${l#*:}
				echo "-:$l" >>"$UPFT_TRACEFS/uprobe_events"
			done
	fi
	rm -rf "$UPFT_TMP"
}

upft_on_signal() {
	upft_cleanup
	trap - EXIT
	exit 130
}

trap upft_cleanup EXIT
trap upft_on_signal INT TERM
