#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# go-stackcheck.sh - a Go entry probe on the stack check's jbe (issue 10): emulated, where the
# instruction past the check is single-stepped (Go 1.19: sub $N,%rsp), and still once per
# call. When the stack must grow the jbe is taken, runtime.morestack copies the stack and runs
# the function again from its entry: the jbe is hit twice for one call. The probe fetches
# %flags (upft_fl) and its event gets the kernel filter '!(upft_fl & 0x41)' (jbe is taken on
# CF or ZF), which drops the first hit in the kernel; -D prints that filter as a comment.
# Targets: go/calls grow (small frames: cmp 0x10(%r14),%rsp; jbe) and deep (2 KiB frames:
# lea -N(%rsp),%r12; cmp 0x10(%r14),%r12; jbe). Addresses from nm. arm64: 'ldr x16, [x28, #16];
# cmp sp, x16; b.ls' (sub x17, sp, #N before the cmp for 2 KiB frames), b.ls taken on Z set or C
# clear, the flags from pstate.
. "$(dirname "$0")/lib.sh"
upft_need_root

# per machine: the check's jump, its offset in down and deep, the first instruction past it in
# down, the -D arguments, the filter (as written, and as a regex)
case $UPFT_ARCH in
arm64)
	jcc=b.ls down_at=8 deep_at=12 past=str past_at=12
	args='id=%x0:s64 n=%x1:s64 upft_fl=%pstate:x64'
	filter='!(upft_fl & 0x40000000) && (upft_fl & 0x20000000)'
	filter_re='!\(upft_fl & 0x40000000\) && \(upft_fl & 0x20000000\)' ;;
*)
	jcc=jbe down_at=4 deep_at=12 past=sub past_at=6
	args='id=%ax:s64 n=%bx:s64 upft_fl=%flags:x64'
	filter='!(upft_fl & 0x41)'
	filter_re='!\(upft_fl & 0x41\)' ;;
esac

G=$UPFT_TARGETS/go/calls
[ -x "$G" ] || t_bail "test targets not built (tests/targets/build.sh $UPFT_TARGETS)"

sym() {
	nm "$G" | sed -n "s/^0*\\([0-9a-f]*\\) T $1\$/\\1/p"
}
plus() {
	printf '%x' $((0x$1 + $2))
}

# each FILE DESC SPEC... - calls-check-like verdict on upfront --json output: every
# "PROBE G N" of SPEC (G goroutines, n = 0..N) seen exactly once with id = g, n, nothing else
each() {
	local file=$1 desc=$2 res
	shift 2
	res=$(python3 - "$file" "$@" <<'EOF'
import collections, json, sys
evs = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
want = collections.Counter()
for spec in sys.argv[2:]:
	probe, g, n = spec.split()
	for i in range(int(g)):
		for k in range(int(n) + 1):
			want[(probe, i, k)] += 1
got = collections.Counter((e["probe"], e["args"]["id"], e["args"]["n"]) for e in evs)
twice = [k for k, v in got.items() if v > 1]
extra = [k for k in got if k not in want]
missing = [k for k in want if k not in got]
if twice or extra or missing:
	print("%d events; twice: %s; unexpected: %s; missing: %s" %
	      (len(evs), twice[:5], extra[:5], missing[:5]))
	sys.exit(1)
print("%d events, each call once" % len(evs))
EOF
)
	if [ $? -eq 0 ]; then
		t_pass "$desc ($res)"
	else
		t_fail "$desc" "$res"
	fi
}

down=$(sym main.down)
deep=$(sym main.deep)
[ -n "$down" ] && [ -n "$deep" ] || t_bail "no main.down or main.deep in nm $G"

# 1. where: on the jbe (+4 after cmp 0x10(%r14),%rsp; +12 after lea and cmp), emulated
upft_run -v -x "$G" -D 'main.down id n'
t_is "$UPFT_RC" 0 "main.down id n: -D succeeds"
t_like "$UPFT_ERR" "main.down at 0x$(plus "$down" $down_at): $jcc .* \\(emulated\\), Go's stack check: its event filters the taken jump\$" \
	"... -v: on the stack check's $jcc at +$down_at, emulated, filtered"
t_like "$UPFT_OUT" "^p:probe_calls/down \\S+/go/calls:0x[0-9a-f]+ $args\$" \
	"... the arguments from Go's registers and the flags"
t_like "$UPFT_OUT" "^# filter probe_calls/down '$filter_re'" \
	"... -D prints the event's filter as a comment"
def=$(printf '%s\n' "$UPFT_OUT" | grep '^p:')

upft_run -v -x "$G" -D 'main.deep id n'
t_like "$UPFT_ERR" "main.deep at 0x$(plus "$deep" $deep_at): $jcc .* \\(emulated\\)" \
	"main.deep (lea; cmp; $jcc): -v: on the $jcc at +$deep_at, emulated"

# 2. the kernel alone: the jbe fires more often than down is called (the stack grows), and
# the filter -D printed leaves one hit per call
ev=$(upft_define "$def") || t_bail "cannot define $def"
inst=$(upft_instance raw) || t_bail "cannot create an instance"
echo 1 >"$inst/events/$ev/enable"
"$G" grow 2 3000 2>/dev/null
echo 0 >"$inst/events/$ev/enable"
raw=$(grep -c ' down: ' "$inst/trace")
[ "$raw" -gt 6002 ]
t_ok $? "no filter: the $jcc is hit $raw times for 6002 calls (the stack grew)"
echo >"$inst/trace"
echo "$filter" >"$inst/events/$ev/filter"
echo 1 >"$inst/events/$ev/enable"
"$G" grow 2 3000 2>/dev/null
echo 0 >"$inst/events/$ev/enable"
t_is "$(grep -c ' down: ' "$inst/trace")" 6002 "with the -D filter: 6002 hits, one per call"

# 3. upfront: every call once, exact arguments, while the stacks grow
out=$UPFT_TMP/grow.json
timeout -s INT -k 5 120 "$UPFRONT" --json -x "$G" 'main.down id n' -- "$G" grow 3 3000 \
	>"$out" 2>"$out.err" </dev/null
t_is "$?" 0 "upfront main.down -- calls grow 3 3000 exits 0"
each "$out" "main.down: each of the 3 x 3001 calls once, exact id and n" "down 3 3000"

out=$UPFT_TMP/deep.json
timeout -s INT -k 5 120 "$UPFRONT" --json -x "$G" 'main.deep id n' -- "$G" deep 4 40 \
	>"$out" 2>"$out.err" </dev/null
t_is "$?" 0 "upfront main.deep -- calls deep 4 40 exits 0"
each "$out" "main.deep (2 KiB frames): each of the 4 x 41 calls once, exact id and n" \
	"deep 4 40"

# the function's first line (its code starts with the check): the same jbe and filter
out=$UPFT_TMP/line.json
timeout -s INT -k 5 120 "$UPFRONT" -v --json -x "$G" 'down=main.down:0 id n' -- "$G" grow 2 3000 \
	>"$out" 2>"$out.err" </dev/null
t_is "$?" 0 "upfront main.down:0 -- calls grow 2 3000 exits 0"
t_like "$(cat "$out.err")" "main.down at 0x$(plus "$down" $down_at): $jcc .* \\(emulated\\)" \
	"... main.down:0 on the $jcc too (-v)"
each "$out" "main.down:0: each of the 2 x 3001 calls once, exact id and n" "down 2 3000"

# its source line as FILE:LINE: the stack check's stub (spill, call morestack, jump back),
# which the line table also gives that line, is left out: it runs just before the entry again
dl=$(grep -n '^func down(' "$UPFT_SRCDIR/tests/targets/go/calls/main.go" | cut -d: -f1)
out=$UPFT_TMP/fileline.json
timeout -s INT -k 5 120 "$UPFRONT" -v --json -x "$G" "down=main.go:$dl id n" -- "$G" grow 2 3000 \
	>"$out" 2>"$out.err" </dev/null
t_is "$?" 0 "upfront main.go:$dl (func down) -- calls grow 2 3000 exits 0"
t_like "$(cat "$out.err")" "line $dl at 0x[0-9a-f]+ is the stack check's morestack call" \
	"... -v: the morestack stub's run of the line left out"
each "$out" "main.go:$dl: each of the 2 x 3001 calls once, exact id and n" "down 2 3000"

# 4. with a filter of the user's own: both apply
out=$UPFT_TMP/filter.json
timeout -s INT -k 5 120 "$UPFRONT" --json --filter 'n < 100' -x "$G" 'main.down id n' -- \
	"$G" grow 2 3000 >"$out" 2>"$out.err" </dev/null
t_is "$?" 0 "--filter 'n < 100' beside the stack check's filter exits 0"
each "$out" "... each call with n < 100 once" "down 2 99"

# 5. -a: the event outlives upfront without its filter; -a says how perf and trace-cmd take
# it, and upfront -e on it sets it in its own instance: each call once there too
upft_run -g "$UPFT_GROUP" -x "$G" -a 'grown=main.down id n'
t_is "$UPFT_RC" 0 "-a 'grown=main.down id n' exits 0"
t_like "$UPFT_ERR" "$UPFT_GROUP:grown is on Go's stack check: filter with '$filter_re' \\(perf record -e $UPFT_GROUP:grown --filter" \
	"... -a names the filter and how perf takes it"
out=$UPFT_TMP/e.json
timeout -s INT -k 5 120 "$UPFRONT" --json -e "$UPFT_GROUP:grown" -- "$G" grow 2 3000 \
	>"$out" 2>"$out.err" </dev/null
t_is "$?" 0 "upfront -e $UPFT_GROUP:grown -- calls grow 2 3000 exits 0"
each "$out" "-e on the -a event: each of the 2 x 3001 calls once" "grown 2 3000"
upft_run -d "$UPFT_GROUP:grown"

# 6. UPFRONT_PLACEMENT=plain: past the check, as before
UPFRONT_PLACEMENT=plain upft_run -v -x "$G" -D 'main.down id n'
t_like "$UPFT_ERR" "main.down at 0x$(plus "$down" $past_at): $past" "UPFRONT_PLACEMENT=plain: past the check"
t_unlike "$UPFT_OUT" "upft_fl" "... no flags, no filter"

t_done
