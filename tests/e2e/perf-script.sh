#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# perf-script.sh - the events -a adds are read right by perf script (Debian's perf 6.1): text
# chunks of Go strings and char arrays as u8[N] (a char[N] field's print format, one '%c'
# per byte, made perf 6.1 print every later field from the string's bytes: Name_len=97),
# C strings, bitfields, enums and flags as the kernel has them; -D's u64 words (a live
# session's) with the comment that says perf shows them as numbers
. "$(dirname "$0")/lib.sh"
upft_need_root

G=$UPFT_TARGETS/go/orders
O=$UPFT_TARGETS/c/orders-O0
for b in "$G" "$O"; do
	[ -x "$b" ] || t_bail "targets not built (tests/targets/build.sh $UPFT_TARGETS)"
done
command -v perf >/dev/null || t_fail "perf is not installed (apt-get install linux-perf)"

# words N... - the text of u64 numbers as their bytes in memory order (little-endian), to
# the first NUL: what perf's numbers for the NAME_wK fields of a kernel without arrays hold
words() {
	python3 -c 'import sys
b = b"".join(int(n).to_bytes(8, "little") for n in sys.argv[1:])
print(b.split(b"\0")[0].decode())' "$@"
}
arrays=$(upft_kernel array)

# record EVENT OUT CMD... - perf record of one event while CMD runs; perf script into OUT
record() {
	local ev=$1 out=$2
	shift 2
	timeout 60 perf record -q -o "$UPFT_TMP/perf.data" -e "$ev" -- "$@" >/dev/null 2>&1
	perf script -i "$UPFT_TMP/perf.data" >"$out" 2>/dev/null
}

# 1. Go: a string (chunks and its length) and an int after it
upft_run -g "$UPFT_GROUP" -x "$G" -a 'main.(*Store).Add o.Customer.Name o.ID'
t_is "$UPFT_RC" 0 "-a on a Go string: exit 0"
line=$(grep "^p:$UPFT_GROUP/Add " "$UPFT_TRACEFS/uprobe_events")
if [ "$arrays" = yes ]; then
	t_like "$line" ' Name=[^ ]*:u8\[64\] ' "the string's chunks are u8[64]"
else
	t_like "$line" ' Name_w0=[^ ]*:u64 .* Name_w7=[^ ]*:u64 ' \
		"without arrays, the string's chunks are u64 words Name_w0..Name_w7"
fi
t_unlike "$line" ':char\[' "... no char[N] field"
record "$UPFT_GROUP:Add" "$UPFT_TMP/go.txt" "$G"
first=$(head -1 "$UPFT_TMP/go.txt")
if [ "$arrays" = yes ]; then
	t_like "$first" ' Name=\{97,108,105,99,101,' "perf script: the chunk's bytes ('alice')"
else
	# (Go's text has no NUL: the words go on past the string's 5 bytes, Name_len)
	t_is "$(words $(printf '%s\n' "$first" | grep -o ' Name_w[0-7]=[0-9]*' | cut -d= -f2) |
		head -c 5)" alice "perf script: the words' bytes ('alice')"
fi
t_like "$first" ' Name_len=5 .* ID=1 ' "perf script: the fields after the string are right (Name_len=5, ID=1)"
t_like "$(sed -n 2p "$UPFT_TMP/go.txt")" ' Name_len=3 .* ID=2 ' "perf script: the second call (bob, ID=2)"
upft_run -d "$UPFT_GROUP:Add"
# -D prints what a live session reads, u64 words, and says how other tools show them
upft_run -x "$G" -D 'main.(*Store).Add o.Customer.Name o.ID'
if [ "$arrays" = yes ] && [ "$(uname -m)" = aarch64 ]; then
	# arm64 reads text as bytes, not words: its copy_from_user keeps only the first byte of a
	# word that faults part way (a string ending right before an unmapped page): as perf does
	t_like "$UPFT_OUT" ' Name=[^ ]*:(char|u8)\[64\] Name_at64=[^ ]*:(char|u8)\[32\] Name_len=' \
		"-D (arm64): the live session's text as bytes, 96 in two chunks (--string-size 96)"
	t_unlike "$UPFT_OUT" "text as u64 words" "-D (arm64): no words, so no comment on how perf shows them"
elif [ "$arrays" = yes ]; then
	t_like "$UPFT_OUT" ' Name=[^ ]*:u64\[12\] Name_len=' "-D: the live session's words, one u64[12] (--string-size 96)"
	names='Name'
else
	t_like "$UPFT_OUT" ' Name_w0=[^ ]*:u64 .* Name_w11=[^ ]*:u64' "-D: the live session's words, u64 fields"
	names='Name_w0\.\.Name_w11'
fi
[ -n "${names:-}" ] &&
	t_like "$UPFT_OUT" "^# [a-z_]+/Add: $names: text as u64 words, .*perf and trace-cmd show numbers.*-a defines bytes" \
		"-D: a comment says perf shows those as numbers and -a defines bytes"

# 2. C: a C string, a char array, bitfields, a bool, an enum
upft_run -g "$UPFT_GROUP" -x "$O" -a \
	'process_order o->id o->customer->name o->customer->code o->fl.urgent o->fl.flags o->fl.mode o->paid o->tier'
t_is "$UPFT_RC" 0 "-a on C values: exit 0"
record "$UPFT_GROUP:process_order" "$UPFT_TMP/c.txt" "$O"
first=$(head -1 "$UPFT_TMP/c.txt")
t_like "$first" ' id=101 ' "perf script: id=101"
t_like "$first" ' name="alice" ' "perf script: the C string"
if [ "$arrays" = yes ]; then
	t_like "$first" ' code=\{71,79,76,68,45,48,48,48,49,0,' "perf script: the char array's bytes (GOLD-0001)"
	after='$'
else
	t_is "$(words $(printf '%s\n' "$first" | grep -o ' code_w[01]=[0-9]*' | cut -d= -f2))" \
		GOLD-0001 "perf script: the char array's words' bytes (GOLD-0001)"
	after=' code_w0='	# the words come after the other fields
fi
t_like "$first" ' urgent=1 flags=5 mode=17 ' "perf script: the bitfields"
t_like "$first" " paid=1 tier=6$after" "perf script: the bool and the enum's value"
upft_run -d "$UPFT_GROUP:process_order"

t_done
