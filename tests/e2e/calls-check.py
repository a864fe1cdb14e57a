#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""calls-check.py - check upfront's durations in a --json stream (tests/e2e/durations.sh)

usage: calls-check.py FILE SPEC... [--unreturned] [--nest]

SPEC is ENTRY_PROBE:EXPR or RETURN_PROBE:EXPR (a return probe's name ends in __return): EXPR
is a Python expression over the event's args `a` giving the call's key; the entry and the
return of one call have the same key (the target returns what identifies the call).

Checked, call by call in the order of the stream:
- every return event is paired: it has "duration", and an entry with its key is open
  (the latest such entry of the same process is its entry);
- the duration is the time between its entry and its return: the JSON times are rounded to
  microseconds, so they agree within 1.5 us;
- with --nest (one thread per process, all calls of all the SPECs nest): each return's
  duration is at least the sum of its direct callees' durations;
- every entry returned, unless --unreturned (then the count of unreturned is printed).
Prints "calls N returns N" and the problems found, one a line; exit status 1 on a problem.
"""
import json
import sys


def main():
    args = sys.argv[1:]
    unreturned = "--unreturned" in args
    nest = "--nest" in args
    args = [x for x in args if not x.startswith("--")]
    path, specs = args[0], {}
    for s in args[1:]:
        probe, expr = s.split(":", 1)
        specs[probe] = compile(expr, s, "eval")
    open_calls = {}     # (pid, probe base, key) -> [entry time]
    stacks = {}         # pid -> [[probe base, key, children's durations]] (--nest)
    problems, calls, returns = [], 0, 0
    for n, line in enumerate(open(path), 1):
        ev = json.loads(line)
        probe = ev.get("probe")
        if probe not in specs:
            continue
        key = eval(specs[probe], {}, {"a": ev["args"]})
        base = probe[: -len("__return")] if probe.endswith("__return") else probe
        k = (ev["pid"], base, key)
        if not probe.endswith("__return"):
            calls += 1
            if "duration" in ev:
                problems.append("line %d: an entry with a duration" % n)
            open_calls.setdefault(k, []).append(ev["time"])
            stacks.setdefault(ev["pid"], []).append([base, key, 0.0])
            continue
        returns += 1
        if not open_calls.get(k):
            problems.append("line %d: return of %s %r without an open entry" % (n, base, key))
            continue
        t0 = open_calls[k].pop()
        if "duration" not in ev:
            problems.append("line %d: return of %s %r has no duration" % (n, base, key))
            continue
        d = ev["duration"]
        if abs(d - (ev["time"] - t0)) > 1.5e-6:
            problems.append("line %d: %s %r: duration %.9f, but entry at %.6f, return at %.6f"
                            % (n, base, key, d, t0, ev["time"]))
        if nest:
            st = stacks.get(ev["pid"], [])
            if not st or st[-1][:2] != [base, key]:
                problems.append("line %d: %s %r does not return from the innermost call"
                                % (n, base, key))
                continue
            _, _, children = st.pop()
            if d < children:
                problems.append("line %d: %s %r: duration %.9f < its callees' %.9f"
                                % (n, base, key, d, children))
            if st:
                st[-1][2] += d
    left = sum(len(v) for v in open_calls.values())
    print("calls %d returns %d" % (calls, returns))
    if unreturned:
        print("unreturned %d" % left)
    elif left:
        problems.append("%d entries never returned" % left)
    for p in problems[:20]:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
