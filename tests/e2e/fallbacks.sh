#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# fallbacks.sh - what upfront writes where the kernel lacks array types, \IMM constants or
# multi-probe events (kernel 4.18, RHEL 8; src/fallback.h), run on this kernel by masking the
# features (UPFRONT_KERNEL_FEATURES): each probe traces the same events, probe names and
# values as without the mask; its definitions (-D) use no T[N] type, no \IMM and no event twice;
# -a, -l and -d take the points of one probe as one event.
. "$(dirname "$0")/lib.sh"

T=$UPFT_TARGETS
ALL=-array,-imm,-multi_probe
# the machine's first argument register (process_order's o at its entry) in a raw fetch; two
# inlined copies of scale() in twice() that read one value from a register each and f as a
# constant: x86-64's gcc keeps v (a, b) in both; arm64's computes b * 3 before the first
# consume() (add w3, w3, w3, lsl #1), so v of the second copy is optimized out there
# (twice+0x20) and the copies are probed at their consume(scaled) line (scaled in w4, w0)
case $UPFT_ARCH in
arm64)	r0=%x0 inl_v=scaled
	inl="lines.c:$(grep -n 'consume(scaled);' "$UPFT_SRCDIR/tests/targets/c/lines.c" |
		cut -d: -f1) scaled f" inl_got='11 19' inl_last='"f": 3, "scaled": 19' ;;
*)	r0=%di inl='scale v f' inl_v=v inl_got='5 6' inl_last='"f": 3, "v": 6' ;;
esac
upft_need_targets "$T/c/orders-O2" "$T/c/values-O2" "$T/c/lines-O2" "$T/c/sdt-O2" \
	"$T/go/orders" "$T/go/calls" "$T/go/churn" "$T/rust/orders-O1"

# events JSON-LINES - the probe and args of each event, one a line
events() {
	printf '%s\n' "$1" | python3 -c '
import json, sys
for l in sys.stdin:
	if l.startswith("{"):
		e = json.loads(l)
		print(json.dumps([e["probe"], e.get("args", {})], sort_keys=True, ensure_ascii=False))
'
}

# same WHAT N REGEX MASKS PROBE -- CMD... - trace PROBE (N events at least) without a mask,
# then under each of the comma-less MASKS (a space-separated list): the same events
same() {
	local what=$1 n=$2 re=$3 masks=$4 want got m
	shift 4
	upft_run --json "$@"
	want=$(events "$UPFT_OUT")
	t_is "$UPFT_RC" 0 "$what: unmasked exits 0"
	t_ok "$([ "$(printf '%s\n' "$want" | grep -c .)" -ge "$n" ]; echo $?)" \
		"$what: unmasked, $n events or more"
	t_like "$want" "$re" "$what: unmasked, the values ($re)"
	for m in $masks; do
		UPFRONT_KERNEL_FEATURES=$m upft_run --json "$@"
		got=$(events "$UPFT_OUT")
		t_is "$UPFT_RC" 0 "$what: UPFRONT_KERNEL_FEATURES=$m exits 0"
		t_is "$got" "$want" "$what: UPFRONT_KERNEL_FEATURES=$m: the same events and values"
	done
}

# defs MASK WHAT ARGS... - -D under MASK: no array type, no \IMM, no event twice
defs() {
	local m=$1 what=$2 lines
	shift 2
	UPFRONT_KERNEL_FEATURES=$m upft_run "$@"
	lines=$(printf '%s\n' "$UPFT_OUT" | grep '^p:')
	t_is "$UPFT_RC" 0 "$what: -D under $m exits 0"
	case $m in *-array*)
		t_unlike "$lines" ':[a-z0-9]+\[[0-9]+\]' "$what: -D under $m: no array type" ;;
	esac
	case $m in *-imm*)
		t_unlike "$lines" '\\' "$what: -D under $m: no \\IMM" ;;
	esac
	case $m in *-multi_probe*)
		t_is "$(printf '%s\n' "$lines" | awk '{print $1}' | sort | uniq -d)" "" \
			"$what: -D under $m: one event per point" ;;
	esac
}

# --- C: strings, char[16] -----------------------------------------------------------------
P='process_order o->id o->customer->name o->customer->code'
defs "$ALL" "C char[16]" -x "$T/c/orders-O2" -D "$P"
t_like "$UPFT_OUT" " code_w0=\\+8\\(\\+24\\($r0\\)\\):u64 code_w1=\\+16\\(\\+24\\($r0\\)\\):u64" \
	"C char[16] without arrays: two u64 words at +8 and +16"
same "C char *, char[16]" 2 '"code": "SILV-0002", "id": 102, "name": "bob"' "-array $ALL" \
	--max-events 2 "$P" -- "$T/c/orders-O2"
# a fetch typed :char[N] by hand: the kernel prints it (as text here), the pieces the same way
# (without arrays upfront writes the bytes as u64 words: no char type needed)
if [ "$(upft_kernel char)" = yes ] || [ "$(upft_kernel array)" = no ]; then
	same "raw :char[16]" 2 '"code": "SILV-0002", "x": "SILV-0002"' "-array $ALL" \
		--max-events 2 "process_order o->customer->code:char[16] x=+8(+24($r0)):char[16]" \
		-- "$T/c/orders-O2"
else
	upft_run -x "$T/c/orders-O2" -D "process_order x=+8(+24($r0)):char[16]"
	t_like "$UPFT_ERR" "^upfront: argument 'x': this kernel has no 'char' type" \
		"raw :char[16] on a kernel without char: refused, saying so"
fi

# --- C: DWARF constants, inlined copies ----------------------------------------------------
defs "$ALL" "DW_AT_const_value" -x "$T/c/values-O2" -D 'konst big bigger uc sc neg'
same "DW_AT_const_value locals" 1 '"neg": -100' "-imm $ALL" \
	--max-events 1 'konst big bigger uc sc neg' -- "$T/c/values-O2"
# a kernel filter cannot see a constant upfront keeps: refused, saying so (not a bare error)
UPFRONT_KERNEL_FEATURES=-imm upft_run --stdio --max-events 1 --filter 'neg == -100' \
	'konst neg big' -- "$T/c/values-O2"
t_is "$UPFT_RC" 2 "--filter on a constant kept by upfront (no \\IMM): exit 2"
t_like "$UPFT_ERR" "^upfront: the kernel rejected the filter 'neg == -100' on konst: .*; 'neg' is a constant here, which this kernel cannot fetch \\(no \\\\IMM\\): upfront keeps it, and the kernel's filter cannot see it$" \
	"... saying the kernel's filter cannot see that constant"
defs "$ALL" "inlined copies" -x "$T/c/lines-O2" -D "$inl"
t_like "$UPFT_OUT" '^p:probe_lines/scale__2 ' "inlined copies without multi-probe events: scale__2"
same "inlined copies with constants" 2 "\\[\"scale\", \\{$inl_last\\}\\]" "-imm -multi_probe $ALL" \
	--max-events 2 "$inl" -- "$T/c/lines-O2"

# --- SDT constants -------------------------------------------------------------------------
defs "$ALL" "SDT constants" -x "$T/c/sdt-O2" -D 'sdt_upft:konst'
same "SDT constant operands" 2 '"arg1": 5, "arg2": -7, "arg3": 43' "-imm $ALL" \
	'sdt_upft:konst' -- "$T/c/sdt-O2" 2

# --- Go: strings, %return at each ret, a glob with stack-check points ----------------------
P='main.(*Store).Add o.Customer.Name o.Items[1].Name'
defs "$ALL" "Go strings" -x "$T/go/orders" -D "$P"
same "Go strings" 2 '"Name": "bob", "Name_1": "plug"' "-array $ALL" \
	--max-events 2 "$P" -- "$T/go/orders"
defs "$ALL" "Go %return" -x "$T/go/churn" -D 'main.divide%return q=~r0'
t_ok "$([ "$(printf '%s\n' "$UPFT_OUT" | grep -c '^p:')" -ge 2 ]; echo $?)" \
	"Go %return: main.divide has several returns"
same "Go %return, one event per ret" 2 '\["divide__return", \{"q": 0\}\]' "-multi_probe $ALL" \
	--max-events 2 -x "$T/go/churn" 'main.divide%return q=~r0' -- "$T/go/churn" once 5
defs "$ALL" "Go stack checks" -x "$T/go/calls" -D 'main.*'
same "a Go glob with stack-check points and \\0 flags" 8 '\["main", \{\}\]' \
	"-imm -multi_probe $ALL" 'main.*' -- "$T/go/calls" deep 1 3

# --- Rust strings --------------------------------------------------------------------------
defs "$ALL" "Rust &str" -x "$T/rust/orders-O1" -D 'orders::shop::add o.id o.name'
same "Rust strings" 2 '"id": 12, "name": "bob"' "-array $ALL" \
	'orders::shop::add o.id o.name' -- "$T/rust/orders-O1"

# --- -a, -l, -d: the points of one probe are one event --------------------------------------
upft_need_root
UPFRONT_KERNEL_FEATURES=$ALL upft_run -g "$UPFT_GROUP" -x "$T/c/lines-O2" -a "sc=$inl"
t_is "$UPFT_RC" 0 "-a of two inlined copies without multi-probe events exits 0"
t_like "$UPFT_ERR" "$UPFT_GROUP:sc \\(on scale and 1 more places in " "... -a says one event"
t_is "$(grep -c "^p:$UPFT_GROUP/sc\(__2\)\? " "$UPFT_TRACEFS/uprobe_events")" 2 \
	"... the kernel has sc and sc__2"
upft_run -l "$UPFT_GROUP:sc"
t_is "$(printf '%s\n' "$UPFT_OUT" | grep -c "^  $UPFT_GROUP:sc (on twice+")" 2 \
	"-l GROUP:sc lists both points as sc"
upft_run --stdio -e "$UPFT_GROUP:sc" -- "$T/c/lines-O2"
# (f, a constant upfront keeps without \IMM, is no field of the kernel's events)
t_is "$(printf '%s\n' "$UPFT_OUT" |
	sed -n "s/^[0-9.]* [^ ]* \\([^ ]*\\) __probe_ip=0x[0-9a-f]* \\($inl_v=[0-9]*\\).*/\\1 \\2/p")" \
	"$(printf "sc $inl_v=%s\n" $inl_got)" \
	"-e GROUP:sc traces both points (sc and sc__2), each shown as sc"
t_like "$UPFT_ERR" '2 events, 0 lost' "... 2 events"
upft_run -d "$UPFT_GROUP:sc"
t_is "$UPFT_RC" 0 "-d GROUP:sc exits 0"
t_is "$UPFT_ERR$UPFT_OUT" "Removed event: $UPFT_GROUP:sc" "... and says one event"
t_is "$(grep -c "^p:$UPFT_GROUP/" "$UPFT_TRACEFS/uprobe_events")" 0 "... both points are gone"

# --- @+FILE_OFFSET: a global in a %return probe ---------------------------------------------
# Linux 4.20 until the 2026 stable fix reads @+OFF at base + 2 * OFF; the row file_offset is
# upfront's self-test of it (a probe of its own binary): yes, or half (upfront writes half the
# offset there). Either way the global is read; where neither holds (masked here), refused
# with the reason, nothing installed.
R='process_order%return g_counter'
if [ "$(upft_kernel file_offset)" != no ]; then
	upft_run --stdio --max-events 2 "$R" -- "$T/c/orders-O2"
	t_is "$(printf '%s\n' "$UPFT_OUT" | sed -n 's/.* process_order__return //p')" \
		"g_counter=1
g_counter=2" "%return: a global read at @+OFFSET is exact (the self-test said so)"
fi
t_like "$("$UPFRONT" --kernel-features)" '^file_offset +(yes|half|no) +self-test' \
	"--kernel-features: the row file_offset comes from the self-test"
UPFRONT_KERNEL_FEATURES=-file_offset upft_run --stdio --max-events 2 "$R" -- "$T/c/orders-O2"
t_is "$UPFT_RC" 2 "-file_offset: a global in a %return probe is refused (exit 2)"
t_like "$UPFT_ERR" "^upfront: cannot read 'g_counter' in a %return probe: it is read at a file offset \(@\+0x[0-9a-f]+\) and UPFRONT_KERNEL_FEATURES masks @\+FILE_OFFSET" \
	"... saying why"
t_is "$(grep -c "$T/c/orders-O2:.* g_counter=" "$UPFT_TRACEFS/uprobe_events")" 0 \
	"... nothing installed"
UPFRONT_KERNEL_FEATURES=-file_offset upft_run --stdio --max-events 2 'process_order g_counter' \
	-- "$T/c/orders-O2"
t_is "$(printf '%s\n' "$UPFT_OUT" | sed -n 's/.* process_order //p')" "g_counter=0
g_counter=1" "-file_offset: at the entry the global is read relative to %ip"

t_done
