#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# cmd-exit.sh - how the traced command ended is said in one line on stderr, and upfront exits
# with the command's status when the command ended the session (exit 7 -> 7, SIGSEGV -> 139,
# SIGKILL -> 137), 0 when upfront ended it (--max-events, SIGINT); a SIGTRAP that a probe
# caused (the program copies its probed code and runs the copy) is named as such. All of them
# ended with exit 0 and no word.
. "$(dirname "$0")/lib.sh"
upft_need_root

C=$UPFT_TARGETS/c/calls-O2
[ -x "$C" ] || t_bail "targets not built (tests/targets/build.sh $UPFT_TARGETS)"

upft_run --stdio -x "$C" 'tick i' -- "$C" exit 7
t_is "$UPFT_RC" 7 "exit 7: upfront exits 7"
t_like "$UPFT_OUT" '^[0-9.]+ calls-O2/[0-9]+ tick i=7$' "exit 7: its event"
t_like "$UPFT_ERR" '^upfront: calls-O2 \(pid [0-9]+\) exited with status 7$' "exit 7: said"

upft_run --stdio -x "$C" 'tick i' -- "$C" exit 0
t_is "$UPFT_RC" 0 "exit 0: upfront exits 0"
t_unlike "$UPFT_ERR" '^upfront: calls-O2 \(pid' "exit 0: a clean exit needs no word"

for s in SEGV KILL; do
	n=$(kill -l $s)
	upft_run --stdio -x "$C" 'tick i' -- "$C" raise "$n"
	t_is "$UPFT_RC" $((128 + n)) "SIG$s: upfront exits $((128 + n))"
	t_like "$UPFT_ERR" "^upfront: calls-O2 \\(pid [0-9]+\\) was killed by SIG$s( \\(core dumped\\))?\$" \
		"SIG$s: said"
done

# JSON: the end as the stream's last line, {"exit":...}; none for a clean exit
upft_run --json -x "$C" 'tick i' -- "$C" exit 7
t_is "$(tail -n 1 <<<"$UPFT_OUT" | sed -E 's/"pid":[0-9]+/"pid":P/')" \
	'{"exit":{"pid":P,"cmd":"calls-O2","status":7}}' "JSON: exit 7 as the last line"
upft_run --json -x "$C" 'tick i' -- "$C" raise "$(kill -l SEGV)"
t_like "$(tail -n 1 <<<"$UPFT_OUT")" '^\{"exit":\{"pid":[0-9]+,"cmd":"calls-O2","signal":"SIGSEGV","core":(true|false)\}\}$' \
	"JSON: SIGSEGV as the last line"
upft_run --json -x "$C" 'tick i' -- "$C" exit 0
t_unlike "$UPFT_OUT" '"exit"' "JSON: no exit line for a clean exit"

# the probe's own breakpoint (int3, arm64's brk), copied and run by the program: SIGTRAP, named
"$C" copy 5 >"$UPFT_TMP/c.out" 2>&1
t_like "$(cat "$UPFT_TMP/c.out")" '^calls: copy returned 16$' "copy: untraced, the copy runs (16)"
upft_run --stdio -x "$C" 'pure x' -- "$C" copy 5
t_is "$UPFT_RC" $((128 + $(kill -l TRAP))) "copy, probed: SIGTRAP, upfront exits 133"
bp="an int3"	# the uprobe's breakpoint instruction
[ "$UPFT_ARCH" = arm64 ] && bp="a brk"
t_like "$UPFT_ERR" "^upfront: calls-O2 \\(pid [0-9]+\\) was killed by SIGTRAP: a breakpoint trap, most likely one of upfront's probes \\($bp in the probed code\\) that the program copied and ran elsewhere, where the kernel has no probe\$" \
	"copy, probed: the SIGTRAP is named as a probe's breakpoint"

# upfront ends the session: the command's SIGTERM is upfront's doing, exit 0
upft_run --stdio --max-events 1 -x "$C" 'walk n' -- "$C" loop 3 10
t_is "$UPFT_RC" 0 "--max-events: exit 0"
t_like "$UPFT_ERR" '^upfront: calls-O2 \(pid [0-9]+\) was ended by upfront \(SIGTERM\) as the session stopped$' \
	"--max-events: says upfront ended the command"
t_done
