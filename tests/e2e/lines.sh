#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# lines.sh - FUNC:RELLINE and SRCFILE:LINE places, -L listings, a local traced in a loop
#
# Target: tests/targets/c/lines.c at -O0 and -O2 (built here when build.sh did not).
# perf probe is the reference for -L at -O0 and for the address of a line.
. "$(dirname "$0")/lib.sh"

src=$UPFT_SRCDIR/tests/targets/c/lines.c

# target OPT - path of lines-OPT, built into the test's directory when missing
target() {
	local t=$UPFT_TARGETS/c/lines-$1
	if [ ! -x "$t" ]; then
		t=$UPFT_TMP/lines-$1
		[ -x "$t" ] || gcc -g "-$1" -Wall -o "$t" "$src" || t_bail "gcc -$1 $src"
	fi
	echo "$t"
}

o0=$(target O0)
o2=$(target O2)

# srcline N - line N of the source
srcline() {
	sed -n "${1}p" "$src"
}

# funcline NAME - the line of the definition of C function NAME
funcline() {
	grep -n "^[^ ].*[ *]$1(" "$src" | head -1 | cut -d: -f1
}

# listing FIRST LAST ORIGIN MARKED... - the -L text perf probe prints for lines FIRST..LAST
# numbered from ORIGIN, where MARKED (absolute line numbers) have code
listing() {
	local first=$1 last=$2 origin=$3 l m
	shift 3
	for ((l = first; l <= last; l++)); do
		m=
		for x in "$@"; do
			[ "$x" = "$l" ] && m=1
		done
		if [ -n "$m" ]; then
			printf '%7d  %s\n' $((l - origin)) "$(srcline "$l")"
		else
			printf '         %s\n' "$(srcline "$l")"
		fi
	done
}

sl=$(funcline sum_loop)
tw=$(funcline twice)
[ -n "$sl" ] && [ -n "$tw" ] || t_bail "cannot find sum_loop/twice in $src"
# lines of sum_loop's body, found by their text so that editing the file keeps the test right
l_total=$(grep -n 'int total = 0;' "$src" | cut -d: -f1)
l_for=$(grep -n 'for (int i = 0; i < n; i++)' "$src" | cut -d: -f1)
l_sq=$(grep -n 'int sq = i \* i + 1;' "$src" | cut -d: -f1)
l_consume=$(grep -n 'consume(sq);' "$src" | cut -d: -f1)
l_add=$(grep -n 'total += sq;' "$src" | cut -d: -f1)
l_ret=$(grep -n 'return total;' "$src" | cut -d: -f1)
l_scaled=$(grep -n 'int scaled = v \* f + 1;' "$src" | cut -d: -f1)
l_consume_s=$(grep -n 'consume(scaled);' "$src" | cut -d: -f1)

# --- -L, against the source ------------------------------------------------------------------

upft_run -x "$o0" -L sum_loop
t_is "$UPFT_RC" 0 "-L sum_loop exits 0"
want="<sum_loop@$src:0>
$(listing "$sl" $((l_ret + 4)) "$sl" "$sl" "$l_total" "$l_for" "$l_sq" "$l_consume" "$l_add" \
	"$l_ret" $((l_ret + 1)))"
t_is "$UPFT_OUT" "$want" "-L sum_loop (-O0) marks the lines with code, numbered from the function"

upft_run -x "$o0" -L "sum_loop:$((l_sq - sl))-$((l_add - sl))"
want="<sum_loop@$src:$((l_sq - sl))>
$(listing "$l_sq" "$l_add" "$sl" "$l_sq" "$l_consume" "$l_add")"
t_is "$UPFT_OUT" "$want" "-L FUNC:START-END shows just that range"

upft_run -x "$o0" -L "c/lines.c:$((sl - 2))-$((tw + 6))"
t_is "$UPFT_RC" 0 "-L SRCFILE:START-END exits 0"
t_like "$(printf '%s\n' "$UPFT_OUT" | head -1)" "^<$src:$((sl - 2))>\$" \
	"-L SRCFILE:START-END names the full source path"
printf '%s\n' "$UPFT_OUT" | grep -Fxq -- "$(printf '%7d  %s' "$l_sq" "$(srcline "$l_sq")")"
t_ok $? "-L SRCFILE marks a line with code by its absolute number"
printf '%s\n' "$UPFT_OUT" | grep -Fxq -- "         $(srcline "$l_for")"
t_ok $((!$?)) "-L SRCFILE marks a for loop's line"

# perf probe -L is the reference at -O0 (it differs at -O2, where it drops lines that share an
# address with the function's entry)
if command -v perf >/dev/null 2>&1; then
	for place in sum_loop twice "lines.c:$((sl - 2))-$((tw + 6))"; do
		want=$(upft_perf_probe -x "$o0" -L "$place" 2>/dev/null)
		upft_run -x "$o0" -L "$place"
		t_is "$UPFT_OUT" "$want" "-L $place is what perf probe -L prints (-O0)"
	done
else
	t_bail "perf is not installed (perf probe -L is the reference)"
fi

upft_run -x "$o2" -L scale
t_is "$UPFT_RC" 0 "-L of a function that exists only inlined exits 0"
t_like "$UPFT_OUT" "^ +$((l_scaled - $(funcline scale)))  " \
	"-L scale (-O2, only inlined) marks its body line"

# a source that is gone: the error says where it looked
mkdir -p "$UPFT_TMP/gone"
cp "$src" "$UPFT_TMP/gone/lines.c"
(cd "$UPFT_TMP/gone" && gcc -g -O0 -o "$UPFT_TMP/gone-bin" lines.c) || t_bail "gcc (gone)"
rm -rf "$UPFT_TMP/gone"
upft_run -x "$UPFT_TMP/gone-bin" -L sum_loop
t_is "$UPFT_RC" 2 "-L with the source missing exits 2"
t_like "$UPFT_ERR" "$UPFT_TMP/gone/lines.c" "-L with the source missing says where it looked"

# --- places: FUNC:RELLINE, SRCFILE:LINE -----------------------------------------------------

# defs TEXT - the p: lines of -D output
defs() {
	printf '%s\n' "$1" | grep -E '^p:' || true
}

# offsets TEXT - the sorted offsets of the p: lines ("0x1185")
offsets() {
	defs "$1" | sed -E 's/^p:[^ ]+ [^ ]*:(0x[0-9a-f]+).*/\1/' | sort
}

for bin in "$o0" "$o2"; do
	opt=${bin##*-}
	upft_run -x "$bin" -D "sum_loop:$((l_consume - sl))"
	t_is "$UPFT_RC" 0 "-D FUNC:RELLINE exits 0 ($opt)"
	t_is "$(defs "$UPFT_OUT" | wc -l)" 1 "a line in a loop body has one address ($opt)"
	if command -v perf >/dev/null 2>&1; then
		# perf probe puts it on the line's first instruction; upfront there or on a later
		# instruction of the line that the kernel emulates (issue 10: the line's call)
		pd=$(upft_perf_probe -x "$bin" -D "sum_loop:$((l_consume - sl))" 2>/dev/null)
		uo=$(offsets "$UPFT_OUT")
		po=$(offsets "$pd")
		t_ok "$([ -n "$uo" ] && [ -n "$po" ] && [ $((uo)) -ge $((po)) ] &&
			[ $((uo - po)) -lt 32 ]; echo $?)" \
			"FUNC:RELLINE is where perf probe puts it, or a few bytes on ($opt: $uo, perf $po)"
	fi

	byfunc=$(offsets "$UPFT_OUT")
	upft_run -x "$bin" -D "lines.c:$l_consume"
	t_is "$(offsets "$UPFT_OUT")" "$byfunc" "SRCFILE:LINE and FUNC:RELLINE agree ($opt)"

	upft_run -x "$bin" -D "lines.c:$l_scaled"
	t_is "$UPFT_RC" 0 "-D SRCFILE:LINE of an inlined function's line exits 0 ($opt)"
	t_is "$(offsets "$UPFT_OUT" | sort -u | wc -l)" 2 \
		"an inlined function's line gets a probe in each of its 2 copies ($opt)"

	upft_run -x "$bin" -D "$src:$l_consume"
	t_is "$UPFT_RC" 0 "SRCFILE may be the full path ($opt)"

	upft_run -x "$bin" -D "sum_loop:$((l_sq + 1 - sl))"
	t_is "$UPFT_RC" 2 "a line without code is an error ($opt)"
	t_like "$UPFT_ERR" "sum_loop:$((l_sq - sl))" "the error names the nearest line before ($opt)"
	t_like "$UPFT_ERR" "sum_loop:$((l_consume - sl))" "the error names the nearest line after ($opt)"

	upft_run -x "$bin" -D "nosuchfile.c:3"
	t_is "$UPFT_RC" 2 "an unknown SRCFILE is an error ($opt)"
done

# --- -V at a line: the variables whose location is valid there -----------------------------

# the printf_id case: dispatch()'s id lives only in a register from its load to the compares
dp=$(funcline dispatch)
l_idload=$(grep -n 'memcpy(&id, buf, sizeof(id));' "$src" | cut -d: -f1)
l_cmp=$(grep -n 'if (id == 30000) {' "$src" | cut -d: -f1)
[ -n "$dp" ] && [ -n "$l_idload" ] && [ -n "$l_cmp" ] || t_bail "cannot find dispatch's lines in $src"

# readable VLIST NAME - true when -V output VLIST lists NAME without a note (readable there)
readable() {
	printf '%s
' "$1" | grep -Eq "[[:space:]]$2\$"
}

for place in "dispatch:$((l_cmp - dp))" "lines.c:$l_cmp"; do
	upft_run -x "$o2" -V "$place"
	t_is "$UPFT_RC" 0 "-V $place exits 0 (O2)"
	readable "$UPFT_OUT" id
	t_ok $? "-V $place lists the local id, live in a register there (O2)"
	t_like "$UPFT_OUT" 'long unsigned int[[:space:]]+id$' "-V $place gives id's type (O2)"
done
for place in "dispatch:$((l_idload - dp))" "lines.c:$l_idload"; do
	upft_run -x "$o2" -V "$place"
	t_is "$UPFT_RC" 0 "-V $place exits 0 (O2)"
	readable "$UPFT_OUT" id
	t_ok $((!$?)) "-V $place does not list id as readable before it is loaded (O2)"
	readable "$UPFT_OUT" buf
	t_ok $? "-V $place lists buf there (O2)"
done
# perf probe -V: every variable perf shows at the compare is one upfront shows as readable
if command -v perf >/dev/null 2>&1; then
	pv=$(upft_perf_probe -x "$o2" -V "dispatch:$((l_cmp - dp))" 2>/dev/null |
		awk 'NR > 2 { print $NF }' | sort)
	upft_run -x "$o2" -V "dispatch:$((l_cmp - dp))"
	uv=$(printf '%s
' "$UPFT_OUT" | awk -F'\t' 'NF == 4 { print $4 }' | sort)
	t_is "$(comm -23 <(echo "$pv") <(echo "$uv"))" "" \
		"-V shows each variable perf probe -V shows at the compare ($(echo $pv))"
fi
upft_run -x "$o0" -V "dispatch:$((l_cmp - dp))"
readable "$UPFT_OUT" id
t_ok $? "-V dispatch:$((l_cmp - dp)) lists id (O0)"

# --- a local in a loop, traced at a line ------------------------------------------------------

upft_need_root
for bin in "$o0" "$o2"; do
	opt=${bin##*-}
	upft_run --json --max-events 5 -x "$bin" "sum_loop:$((l_consume - sl)) sq" -- "$bin" 5
	t_is "$UPFT_RC" 0 "tracing a line exits 0 ($opt)"
	got=$(for n in 1 2 3 4 5; do upft_json_arg "$UPFT_OUT" $n sq; done | tr '\n' ' ')
	t_is "$got" "1 2 5 10 17 " "the local sq in the loop, in order ($opt)"
done

# --- a local live only in a register at that line (printf_id) -------------------------------

upft_run -x "$o2" -D "dispatch:$((l_cmp - dp)) id"
t_is "$UPFT_RC" 0 "-D at the compare line exits 0 (O2)"
t_like "$(defs "$UPFT_OUT")" ' id=%[a-z0-9]+:u64$' "at -O2 id is read from a register there"
for bin in "$o0" "$o2"; do
	opt=${bin##*-}
	for place in "dispatch:$((l_cmp - dp))" "lines.c:$l_cmp"; do
		upft_run --json --max-events 4 -x "$bin" "$place id" -- "$bin" 5
		t_is "$UPFT_RC" 0 "tracing $place id exits 0 ($opt)"
		got=$(for n in 1 2 3 4; do upft_json_arg "$UPFT_OUT" $n id; done | tr '\n' ' ')
		t_is "$got" "30007 30000 30001 42 " "$place: the register-only local id, in order ($opt)"
	done
done
upft_run -x "$o2" -D "dispatch:$((l_idload - dp)) id"
t_is "$UPFT_RC" 2 "id before its load is an error (O2)"
t_like "$UPFT_ERR" "'id' is optimized out at dispatch\+0x" "the error says id is optimized out there"

# --- an inlined function's local at -O2 --------------------------------------------------------

# At -O2 gcc keeps a statement start for scale:4 (consume(scaled)) only in the second copy
# (twice's scale(b, 3)); the first copy's code there has no statement start (perf probe refuses
# the line). Each event must be one of the two copies' values.
sc=$(funcline scale)
# arm64's gcc computes b * 3 before the first copy's consume() call: v is only an entry value
# there (twice+0x10, x0 reused) and optimized out in the second copy; scaled alone on arm64
sv=" v"
[ "$UPFT_ARCH" = arm64 ] && sv=
upft_run --json --max-events 2 --duration 5 -x "$o2" "scale:$((l_consume_s - sc)) scaled$sv" \
	-- "$o2" 5
t_is "$UPFT_RC" 0 "tracing scale:$((l_consume_s - sc)) scaled$sv exits 0 (O2)"
n=$(upft_json_count "$UPFT_OUT")
[ "$n" -ge 1 ]
t_ok $? "the inlined local is traced at -O2 ($n events)"
bad=0
for ((i = 1; i <= n; i++)); do
	pair="$(upft_json_arg "$UPFT_OUT" $i scaled)/$(upft_json_arg "$UPFT_OUT" $i v)"
	[ "$pair" = 11/5 ] || [ "$pair" = 19/6 ] || [ "$sv$pair" = 11/ ] || [ "$sv$pair" = 19/ ] ||
		bad=$((bad + 1))
done
t_is "$bad" 0 "each inlined copy's scaled is v * f + 1 (11 for v 5, 19 for v 6) (O2)"
upft_run -x "$o2" -D "scale:$((l_scaled - sc)) scaled"
if [ "$UPFT_ARCH" = arm64 ]; then
	# scale's line 23 has one statement start inside its copies, the second's add w0, w3, #1
	# (twice+0x20), which computes scaled: not there yet (the first copy's mark is at twice's
	# entry, outside the copy)
	t_is "$UPFT_RC" 2 "scaled at its own line: computed by the probed instruction itself (O2)"
	t_like "$UPFT_ERR" "'scaled' is optimized out at twice\\+0x20" \
		"... optimized out there, with the reason (O2)"
	upft_run --json --max-events 1 -x "$o2" "scale:$((l_scaled - sc)) f" -- "$o2" 5
	t_is "$(upft_json_arg "$UPFT_OUT" 1 f)" 3 \
		"the copy's constant f at its first line (O2)"
else
	# the first copy's line comes before scaled is computed: that copy is skipped with a
	# warning; the second copy's scaled is computed already (gcc scheduled it up), in rdx
	t_is "$UPFT_RC" 0 "scaled at its own line: the copy where it is computed is probed (O2)"
	t_like "$UPFT_ERR" "skipped 1 match: 'scaled' is optimized out at twice\\+0x0" \
		"the copy before it is computed is skipped, with the reason (O2)"
	t_like "$UPFT_OUT" '^p:probe_lines/scale [^ ]+ scaled=%dx:s32$' \
		"the other copy reads scaled where DWARF says it is (O2)"
	upft_run --json --max-events 2 -x "$o2" "scale:$((l_scaled - sc)) v f" -- "$o2" 5
	t_is "$(upft_json_arg "$UPFT_OUT" 1 v)/$(upft_json_arg "$UPFT_OUT" 1 f) $(upft_json_arg \
		"$UPFT_OUT" 2 v)/$(upft_json_arg "$UPFT_OUT" 2 f)" "5/2 6/3" \
		"both inlined copies' parameters at their first line, a constant f included (O2)"
fi

t_done
