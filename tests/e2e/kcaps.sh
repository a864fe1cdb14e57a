#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# kcaps.sh - the kernel capability table (upfront --kernel-features, -v) agrees with tracefs,
# leaves nothing behind, and UPFRONT_KERNEL_FEATURES makes upfront do on this kernel what it
# does on one without each feature: u8[N] text and a comment (-char), the refused part named
# where error_log is missing (-error_log), reads on a timer (-buffer_percent), --stack refused
# (-userstacktrace, for --stack=fp), SDT semaphores refused (-ref_ctr); a bad mask is one line, exit 2
. "$(dirname "$0")/lib.sh"
upft_need_root
# the table as tracefs has it: this test masks rows itself (.ci/masked runs the suite masked)
unset UPFRONT_KERNEL_FEATURES
O=$UPFT_TARGETS/c/orders-O0
C=$UPFT_TARGETS/c/calls-O0
S=$UPFT_TARGETS/c/sdt-O2
upft_need_targets "$O" "$C" "$S"
T=$UPFT_TRACEFS

# left_kcaps - how many scratch events (upft_kcaps<pid>) of processes that are gone are left
# (a live one is another upfront at work on this shared machine)
left_kcaps() {
	local pid n=0
	for pid in $(sed -n 's/^[pr]:upft_kcaps\([0-9]*\)\/.*/\1/p' "$T/uprobe_events"); do
		[ -d "/proc/$pid" ] || n=$((n + 1))
	done
	echo $n
}

# row NAME - the value of row NAME in $UPFT_OUT (a --kernel-features table)
row() {
	printf '%s\n' "$UPFT_OUT" | awk -v n="$1" '$1 == n { print $2 }'
}

# 1. the table: every row once, files as tracefs has them, the README's words as it has them
upft_run --kernel-features
t_is "$UPFT_RC" 0 "--kernel-features exits 0"
t_is "$(printf '%s\n' "$UPFT_OUT" | awk '{print $1}' | tr '\n' ' ')" \
	"char string hex bitfield array imm imm_str ustring user_deref symstr comm ref_ctr multi_probe error_log buffer_percent subbuf_size event_pid event_fork record_tgid userstacktrace hist file_offset max_args max_arg_len max_name_len max_derefs max_array max_event_size max_event_name " \
	"--kernel-features: the rows, in order"
for f in error_log:error_log buffer_percent:buffer_percent subbuf_size:buffer_subbuf_size_kb \
	event_pid:set_event_pid event_fork:options/event-fork record_tgid:options/record-tgid \
	userstacktrace:options/userstacktrace; do
	[ -e "$T/${f#*:}" ] && want=yes || want=no
	t_is "$(row "${f%%:*}")" "$want" "row ${f%%:*} is $want as $T/${f#*:} exists or not"
done
types=$(sed -n '/ type: /,/:/p' "$T/README")
printf '%s\n' "$types" | grep -qw char && want=yes || want=no
t_is "$(row char)" "$want" "row char is $want as the README's type list has char or not"
grep -qF '<array-size>' "$T/README" && want=yes || want=no
t_is "$(row array)" "$want" "row array follows the README's <type>[<array-size>]"
grep -qF 'hist (see below)' "$T/README" && want=yes || want=no
t_is "$(row hist)" "$want" "row hist follows the README's trigger list"
if grep -qF 'Create/append/' "$T/README"; then
	t_like "$UPFT_OUT" '^multi_probe +yes +README' "multi_probe: the README says so"
else
	t_like "$UPFT_OUT" '^multi_probe +(yes|no) +probe' \
		"multi_probe: not in the README, learned by the try-and-remove probe (root)"
fi
t_is "$(left_kcaps)" 0 "... which leaves no upft_kcaps event"
t_like "$UPFT_OUT" '^file_offset +(yes|half|no) +self-test ' \
	"file_offset: from the self-test (a probe of upfront's own binary reading one of its constants)"
t_is "$(find "$T/instances" -maxdepth 1 -name "upft_kcaps*" | while read -r i; do
	[ -d "/proc/${i##*upft_kcaps}" ] || echo "$i"; done)" "" "... which leaves no upft_kcaps instance"
# a scratch event of a process that is gone (SIGKILL between its write and its removal) is
# removed by the next upfront; one of a live process (this shell) is left alone
sleep 0 & dead=$!
wait $dead
echo "p:upft_kcaps$dead/multi $O:0x0" >>"$T/uprobe_events"
echo "p:upft_kcaps$$/multi $O:0x0" >>"$T/uprobe_events"
upft_run -v --kernel-features
# (by this one, which -v says, or by another upfront at work on this shared machine)
grep -q "^p:upft_kcaps$dead/" "$T/uprobe_events"
t_ok $((!$?)) "a dead process's scratch event is removed by the next upfront"
t_is "$(grep -c "^p:upft_kcaps$$/" "$T/uprobe_events")" 1 "... a live process's is left alone"
echo "-:upft_kcaps$$/multi" >>"$T/uprobe_events"
t_is "$(row max_array)" 64 "limits: max_array 64"

# -v starts with the same rows
upft_run -v -x "$O" -D 'process_order o->id'
t_like "$UPFT_ERR" 'kcaps: error_log +(yes|no) ' "-v prints the table's rows"

# 2. the mask: each name turns its row off, says so, and nothing else
for n in char array imm imm_str ustring user_deref symstr ref_ctr multi_probe error_log \
	buffer_percent subbuf_size event_pid event_fork record_tgid userstacktrace hist file_offset; do
	UPFRONT_KERNEL_FEATURES=-$n upft_run --kernel-features
	t_like "$UPFT_OUT" "^$n +no +masked" "UPFRONT_KERNEL_FEATURES=-$n: row $n is no (masked)"
	t_is "$(printf '%s\n' "$UPFT_OUT" | grep -c masked)" 1 "... and only that row is masked"
done
UPFRONT_KERNEL_FEATURES=-array,-imm,-multi_probe,-error_log,-buffer_percent,-char \
	upft_run --kernel-features
t_is "$(printf '%s\n' "$UPFT_OUT" | grep masked | awk '{print $1}' | tr '\n' ' ')" \
	"char array imm multi_probe error_log buffer_percent " "a list masks each of its names"
for bad in array -arrays "-char,,-imm" +char; do
	UPFRONT_KERNEL_FEATURES=$bad upft_run -x "$O" 'process_order o->id' -- "$O"
	t_is "$UPFT_RC" 2 "UPFRONT_KERNEL_FEATURES='$bad': exit 2"
	t_like "$UPFT_ERR" "^upfront: UPFRONT_KERNEL_FEATURES: .*; features: char, string," \
		"... one line naming the features"
	t_is "$(printf '%s\n' "$UPFT_ERR" | wc -l)" 1 "... only that line"
done

# 3. -char: text fetched as bytes is u8[N], and -D says how perf shows it
UPFRONT_KERNEL_FEATURES=-char upft_run -x "$O" -D 'process_order o->customer->code'
# (o in %di at x86-64's -O0 entry, in an sp slot past arm64's -O0 prologue: placement.sh)
t_like "$UPFT_OUT" ' code=\+8\(\+24\([^ ]+\)\):u8\[16\] ' "-char: -D reads a char[16] as u8[16]"
t_like "$UPFT_OUT" '^# probe_orders/process_order: code: text as u8\[N\] bytes \(this kernel has no char type\): .*decimal number' \
	"-char: -D's comment says perf and trace-cmd show decimal bytes"
UPFRONT_KERNEL_FEATURES=-char upft_run --json -x "$O" 'process_order o->customer->code' -- "$O"
t_is "$(upft_json_arg "$UPFT_OUT" 1 code)" '"GOLD-0001"' "-char: a live session still shows the text"
upft_run -x "$O" -D 'process_order o->customer->code'
if [ "$(upft_kernel char)" = yes ]; then
	t_like "$UPFT_OUT" ' code=[^ ]*:char\[16\] ' "with char: -D reads char[16]"
	t_unlike "$UPFT_OUT" 'text as u8' "... and has no u8 comment"
else
	t_like "$UPFT_OUT" ' code=[^ ]*:u8\[16\] ' "without char: -D reads u8[16]"
fi

# 4. -error_log: the kernel's bare EINVAL becomes the part it refuses, tried alone
UPFRONT_KERNEL_FEATURES=-error_log upft_run -x "$O" 'process_order o->id x=$stack:string' -- "$O"
t_is "$UPFT_RC" 2 "-error_log: a rejected probe is exit 2"
t_like "$UPFT_ERR" "no reason given \\(this kernel has no error_log\\); it refuses the argument 'x=\\\$stack:string' \\(the ones before it are accepted\\)" \
	"-error_log: the message names the argument the kernel refuses"
UPFRONT_KERNEL_FEATURES=-error_log upft_run -x "$O" -g "$UPFT_GROUP" -a 'process_order x=$stack:string'
t_is "$UPFT_RC" 2 "-error_log -a: exit 2"
t_is "$(grep -c "^p:$UPFT_GROUP/" "$T/uprobe_events")" 0 "... nothing added"
t_is "$(left_kcaps)" 0 "... and no scratch event left"

# 5. -buffer_percent: the reader is not woken by the kernel but reads on a timer; all events
UPFRONT_KERNEL_FEATURES=-buffer_percent upft_run --json -x "$C" 'walk' -- "$C" walk 10
t_is "$UPFT_RC" 0 "-buffer_percent: the session runs"
t_is "$(printf '%s\n' "$UPFT_OUT" | grep -c '"probe":"walk"')" 177 \
	"-buffer_percent: every call of walk(10) (2*fib(11)-1 = 177) is shown"
# a fast workload (900,000 hits, ~1.5 M a second here): the timer follows the rate, so no
# ring fills between two reads (a fixed 10 ms lost 1-4% of them, and a round that began
# with the rest of a page read before stopped there: half the rounds read one page)
# (~1 s here; the arm64 guest's emulated CPU took over 60: the bound times UPFT_TIMEOUT_SCALE)
UPFRONT_KERNEL_FEATURES=-buffer_percent timeout -s INT -k 5 $((60 * ${UPFT_TIMEOUT_SCALE:-1})) \
	"$UPFRONT" --json -x "$O" 'process_order o->id' 'log_message msg' -- "$O" 300000 \
	>"$UPFT_TMP/fast" 2>"$UPFT_TMP/fast.err" </dev/null
t_is "$?" 0 "-buffer_percent, a fast workload: the session runs"
t_like "$(cat "$UPFT_TMP/fast.err")" '^upfront: 900000 events, 0 lost$' \
	"-buffer_percent, a fast workload: 900000 events, none lost"
t_is "$(grep -c '"probe":"process_order"' "$UPFT_TMP/fast")" 600000 \
	"-buffer_percent, a fast workload: every process_order is shown"
rm -f "$UPFT_TMP/fast"

# 6. -userstacktrace: --stack=fp (the kernel's walk) is refused with the reason; -ref_ctr: an SDT semaphore
UPFRONT_KERNEL_FEATURES=-userstacktrace upft_run -x "$O" --stack=fp 'process_order' -- "$O"
t_is "$UPFT_RC" 2 "-userstacktrace: --stack=fp is exit 2"
t_like "$UPFT_ERR" 'no options/userstacktrace' "... naming options/userstacktrace"
UPFRONT_KERNEL_FEATURES=-ref_ctr upft_run -x "$S" -D sdt_upft:guarded
t_is "$UPFT_RC" 2 "-ref_ctr: a probe guarded by a semaphore is refused"
t_like "$UPFT_ERR" 'ref_ctr_offset' "... naming ref_ctr_offset"
t_is "$(left_kcaps)" 0 "no upft_kcaps event is left"
t_done
