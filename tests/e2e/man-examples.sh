#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# man-examples.sh - every upfront command of the man page's EXAMPLES works against the
# shipped targets: its binary mapped to a test target, a trace turned into -D (the probes
# resolve; its --filter and --summary options are tests/e2e/filters.sh's and summary.sh's), -a
# into -D (nothing installed), -F/-V/-L/-l run as they are; exit 0 each
. "$(dirname "$0")/lib.sh"
upft_need_root

MAN=$UPFT_SRCDIR/man/upfront.1
B=$UPFT_TARGETS
for b in c/calls-O2 go/dnsfwd go/orders cpp/mailbox-O2 rust/orders-O1; do
	[ -x "$B/$b" ] || t_bail "targets not built (tests/targets/build.sh $UPFT_TARGETS)"
done

# the commands: lines between .EX and .EE starting with "upfront", continuations joined
cmds=$(sed -n '/^\.SH EXAMPLES/,/^\.SH /p' "$MAN" | python3 -c '
import shlex, sys
binaries = {"./calls": "c/calls-O2", "./dnsfwd": "go/dnsfwd", "/opt/dnsfwd": "go/dnsfwd", "./orders": "go/orders",
            "./mailbox": "cpp/mailbox-O2", "./orders-rs": "rust/orders-O1"}
text = sys.stdin.read().replace("\\-", "-").replace("\\e\n", " ").replace("\\(aq", "\x27")
drop_arg = {"-p", "--max-events", "--metrics", "--metrics-label", "--duration", "-o",
            "--filter", "--interval", "--top"}
drop = {"--json", "--stdio", "--summary", "--summary-only"}
for line in text.splitlines():
    if not line.startswith("upfront "):
        continue
    words = shlex.split(line)[1:]
    if "--replay" in words:
        continue	# a saved run: tests/e2e/replay.sh
    out, i = [], 0
    while i < len(words):
        w = words[i]
        if w in ("--", "|", ">/dev/null", "&") or w.startswith(">"):
            break
        if w in drop_arg:
            i += 2
            continue
        if w not in drop:
            out.append(w)
        i += 1
    if "-x" in out:
        x = out.index("-x") + 1
        if out[x] in binaries:
            out[x] = sys.argv[1] + "/" + binaries[out[x]]
        elif out[x] != "libc.so.6":
            print("UNKNOWN " + line)
            continue
    if "-d" in out:
        continue
    if "-a" in out:
        out[out.index("-a")] = "-D"
    if not set(out) & {"-F", "-V", "-L", "-D", "-l"}:
        out.insert(0, "-D")
    print(shlex.join(out))
' "$B")
n=$(printf '%s\n' "$cmds" | grep -c .)
[ "$n" -ge 12 ]
t_ok $? "the man page's EXAMPLES have $n upfront commands"
while IFS= read -r c; do
	case $c in
	UNKNOWN*) t_fail "an example names a binary with no test target: ${c#UNKNOWN }"; continue ;;
	esac
	eval "upft_run $c"
	t_is "$UPFT_RC" 0 "man example: upfront $c" || t_diag "$UPFT_ERR"
done <<<"$cmds"

t_done
