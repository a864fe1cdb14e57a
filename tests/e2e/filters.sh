#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# filters.sh - --filter per probe (PROBE:EXPR, repeatable): the kernel's filter on that
# probe's event only; 'duration OP N UNIT' decided by upfront on paired returns; a filtered
# entry's returns go with it; errors name the probe
. "$(dirname "$0")/lib.sh"
upft_need_root

C=$UPFT_TARGETS/c/calls-O2
[ -x "$C" ] || t_bail "targets not built (tests/targets/build.sh $UPFT_TARGETS)"

# calls threads 2 3: job(id, usec), id 0..2 sleeping 1000..1200 us, id 1000..1002 sleeping
# 2000..2200 us; job returns id
P=('job id usec' 'job%return $retval')

# 1. one filter for every probe that one of them cannot take: refused, naming that probe
upft_run --stdio --filter 'id >= 1000' -x "$C" "${P[@]}" -- "$C" threads 2 3
t_is "$UPFT_RC" 2 "a filter on 'id' for job and job__return: exit 2"
t_is "$UPFT_ERR" "upfront: --filter 'id >= 1000': probe job__return has no field 'id' (its fields: retval); a filter for one probe: --filter 'job:id >= 1000'" \
	"... names the probe without the field, its fields, and the filter for one probe"

# 2. PROBE:EXPR: the entries with id >= 1000 and only their returns (each paired)
upft_run --json --filter 'job:id >= 1000' -x "$C" "${P[@]}" -- "$C" threads 2 3
t_is "$UPFT_RC" 0 "job:id >= 1000: exit 0"
res=$(printf '%s\n' "$UPFT_OUT" | python3 -c '
import json, sys
evs = [json.loads(l) for l in sys.stdin if l.startswith("{")]
ids = sorted(e["args"]["id"] for e in evs if e["probe"] == "job")
rets = sorted(e["args"]["retval"] for e in evs if e["probe"] == "job__return")
paired = all("duration" in e for e in evs if e["probe"] == "job__return")
print(ids, rets, paired)')
t_is "$res" "[1000, 1001, 1002] [1000, 1001, 1002] True" \
	"job:id >= 1000: the 3 entries, their 3 returns with durations, nothing of id 0..2"

# 3. repeatable, one per probe; FUNC%return names the return probe's event
upft_run --json --filter 'job:id >= 1000' --filter 'job%return:retval != 1001' \
	-x "$C" "${P[@]}" -- "$C" threads 2 3
res=$(printf '%s\n' "$UPFT_OUT" | python3 -c '
import json, sys
evs = [json.loads(l) for l in sys.stdin if l.startswith("{")]
print(sorted(e["args"]["id"] for e in evs if e["probe"] == "job"),
      sorted(e["args"]["retval"] for e in evs if e["probe"] == "job__return"))')
t_is "$res" "[1000, 1001, 1002] [1000, 1002]" "two filters, one per probe"

# 4. duration, decided by upfront: only the returns slower than 1.9 ms; the calls of id
#    1000..1002 sleep at least 2 ms, so all three are there
for f in 'job%return:duration > 1.9ms' 'duration > 1900us'; do
	upft_run --json --filter "$f" -x "$C" "${P[@]}" -- "$C" threads 2 3
	t_is "$UPFT_RC" 0 "$f: exit 0"
	res=$(printf '%s\n' "$UPFT_OUT" | python3 -c '
import json, sys
evs = [json.loads(l) for l in sys.stdin if l.startswith("{")]
rets = [e for e in evs if e["probe"] == "job__return"]
slow = all(e["duration"] > 0.0019 for e in rets)
print(len([e for e in evs if e["probe"] == "job"]), slow,
      {1000, 1001, 1002} <= {e["args"]["retval"] for e in rets})')
	t_is "$res" "6 True True" "$f: every entry, only returns slower than 1.9 ms (ids 1000..1002 among them)"
done

# 5. kernel part and duration and-ed in one filter; the summary counts what passed
upft_run --summary-only --filter 'job%return:retval < 1000 && duration < 1s' \
	-x "$C" "${P[@]}" -- "$C" threads 2 3
t_like "$UPFT_OUT" '^job__return: 3 events' "retval < 1000 && duration < 1s: 3 returns"
t_like "$UPFT_OUT" '^  duration of job: 3 calls' "... and their 3 durations in the summary"

# 6. errors name the probe; nothing is installed
for c in "jb:id > 1=>--filter 'jb:id > 1': no probe 'jb' (probes: job, job__return)" \
	"job:duration > 1ms=>--filter 'job:duration > 1ms': probe job has no duration" \
	"job%return:duration > 1=>'duration OP N UNIT' (ns, us, ms, s), and-ed (&&) with the rest" \
	"duration > 1ms || retval > 3=>and-ed (&&) with the rest" \
	"job:id >= \"x\"=>the kernel rejected the filter 'id >= \"x\"' on job: "; do
	f=${c%%=>*}
	upft_run --stdio --filter "$f" -x "$C" "${P[@]}" -- "$C" threads 2 3
	t_is "$UPFT_RC" 2 "--filter '$f': exit 2"
	case $UPFT_ERR in
	*"${c#*=>}"*) t_pass "--filter '$f': says so" ;;
	*) t_fail "--filter '$f': says so" "$UPFT_ERR" ;;
	esac
done

t_done
