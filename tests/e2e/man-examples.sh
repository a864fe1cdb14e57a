#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# man-examples.sh - every upfront command of the man page's EXAMPLES and of the README works
# against the shipped targets: its binary mapped to a test target (the man page's ./NAME, the
# README's tests/build/...; without -x the command's), a trace turned into -D (the probes
# resolve; its --filter and --summary options are tests/e2e/filters.sh's and summary.sh's),
# -a into -D (nothing installed), -F/-V/-L/-l run as they are; exit 0 each
. "$(dirname "$0")/lib.sh"
upft_need_root

MAN=$UPFT_SRCDIR/man/upfront.1
README=$UPFT_SRCDIR/README.md
B=$UPFT_TARGETS
for b in c/calls-O2 go/dnsfwd go/orders cpp/mailbox-O2 rust/orders-O1; do
	[ -x "$B/$b" ] || t_bail "targets not built (tests/targets/build.sh $UPFT_TARGETS)"
done

# commands TEXT - the upfront commands of TEXT (one a line) as upfront arguments to run
commands() {
	python3 -c '
import shlex, sys
binaries = {"./calls": "c/calls-O2", "./dnsfwd": "go/dnsfwd", "/opt/dnsfwd": "go/dnsfwd",
            "./orders": "go/orders", "./mailbox": "cpp/mailbox-O2", "./orders-rs": "rust/orders-O1"}
drop_arg = {"-p", "--max-events", "--metrics", "--metrics-label", "--duration", "-o",
            "--filter", "--interval", "--top"}
drop = {"--json", "--stdio", "--summary", "--summary-only", "--stack"}
def target(path):
    if path in binaries:
        return sys.argv[1] + "/" + binaries[path]
    if path.startswith("tests/build/"):
        return sys.argv[1] + "/" + path[len("tests/build/"):]
    return path if path == "libc.so.6" else None
for line in sys.stdin.read().splitlines():
    words = shlex.split(line)[1:]
    if "--replay" in words:
        continue	# a saved run: tests/e2e/replay.sh
    out, cmd, i = [], None, 0
    while i < len(words):
        w = words[i]
        if w == "--":
            cmd = words[i + 1] if i + 1 < len(words) else None
            break
        if w in ("|", "&") or w.startswith(">"):
            break
        if w in drop_arg:
            i += 2
            continue
        if w not in drop:
            out.append(w)
        i += 1
    if "-d" in out:
        continue	# deletes: never run here
    if "-x" in out:
        x = out.index("-x") + 1
        out[x] = target(out[x])
    elif cmd:
        out = ["-x", target(cmd)] + out
    elif set(out) & {"-l"}:
        pass
    else:
        continue	# -p PID only: tests/e2e/session.sh
    if None in out:
        print("UNKNOWN " + line)
        continue
    if "-a" in out:
        out[out.index("-a")] = "-D"
    if not set(out) & {"-F", "-V", "-L", "-D", "-l"}:
        out.insert(0, "-D")
    print(shlex.join(out))
' "$B"
}

man_cmds=$(sed -n '/^\.SH EXAMPLES/,/^\.SH /p' "$MAN" |
	sed 's/\\-/-/g;s/\\(aq/'"'"'/g' | sed -e ':a' -e '/\\e$/{N;s/\\e\n/ /;ba}' |
	grep '^upfront ' | commands)
readme_cmds=$(sed -e ':a' -e '/\\$/{N;s/\\\n/ /;ba}' "$README" | grep '^    upfront ' |
	sed 's/^    //' | commands)
for src in man readme; do
	case $src in
	man) cmds=$man_cmds; min=12 ;;
	readme) cmds=$readme_cmds; min=20 ;;
	esac
	n=$(printf '%s\n' "$cmds" | grep -c .)
	[ "$n" -ge "$min" ]
	t_ok $? "$src: $n upfront commands to check"
	while IFS= read -r c; do
		case $c in
		UNKNOWN*)
			t_fail "$src: an example names a binary with no test target: ${c#UNKNOWN }"
			continue ;;
		esac
		eval "upft_run $c"
		t_is "$UPFT_RC" 0 "$src example: upfront $c" || t_diag "$UPFT_ERR"
	done <<<"$cmds"
done

t_done
