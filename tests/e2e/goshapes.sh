#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# goshapes.sh - Go maps, embedded pointers and heap locals in the text output, as delve prints
# them (the JSON form is in cases/goshapes.cases); every entry of a larger map's first bucket
# is one of the program's (its values are the squares of its keys)
. "$(dirname "$0")/lib.sh"
upft_need_root

for b in shapes shapes-N; do
	bin=$UPFT_TARGETS/go/$b
	[ -x "$bin" ] || t_bail "$bin not built (tests/targets/build.sh)"
	upft_run --stdio 'main.maps ages names none empty big len(big)' \
		'main.promoted o.S o.N' 'main.go:64 i1' -- "$bin"
	t_is "$UPFT_RC" 0 "[$b] tracing maps, promoted, escaped exits 0"
	t_like "$UPFT_OUT" " maps ages=map\[string\]int \[\"alice\": 31, \"bob\": 42, \"carol\": 27\] " \
		"[$b] a small map's entries"
	t_like "$UPFT_OUT" " names=map\[int\]string \[1: \"one\", 2: \"two\"\] none=null " \
		"[$b] integer keys; a nil map"
	t_like "$UPFT_OUT" " empty=map\[string\]int \[\] big=map\[int\]int \[([0-9]+: [0-9]+, )*\.\.\.\+[0-9]+ more\] len=40\$" \
		"[$b] an empty map; a larger one: its first bucket and how many more"
	big=$(printf '%s\n' "$UPFT_OUT" | sed -n 's/.* big=map\[int\]int \[\(.*\)\.\.\.+\([0-9]*\) more\].*/\1 \2/p')
	bad=0 n=0
	for kv in $(printf '%s\n' "${big% *}" | tr -d ' ' | tr ',' ' '); do
		k=${kv%%:*} v=${kv#*:}
		[ "$v" -eq $((k * k)) ] || bad=1
		n=$((n + 1))
	done
	t_is "$bad" 0 "[$b] each entry of the first bucket is k: k*k (${big% *})"
	t_is "$((n + ${big##* }))" 40 "[$b] the entries shown and those counted as more make 40"
	t_like "$UPFT_OUT" " promoted S=\"inner\" N=5\$" \
		"[$b] fields promoted through an embedded pointer"
	t_like "$UPFT_OUT" " promoted S=\(fault\) N=\(fault\)\$" "[$b] ... a nil one is a fault"
	t_like "$UPFT_OUT" " escaped i1=41\$" "[$b] a local moved to the heap"
	# a key not among a larger map's entries read is unknown, not absent
	upft_run --stdio 'main.maps ages["bob"] x=ages["zed"] z=big[1000]' -- "$bin"
	t_like "$UPFT_OUT" " maps ages=42 x=null z=\(unknown\)\$" \
		"[$b] lookups: found, absent, unknown"
	# the summary counts a map by its text
	upft_run --summary-only 'main.maps ages' -- "$bin"
	t_like "$UPFT_ERR$UPFT_OUT" "1  map\[string\]int \[\"alice\": 31, \"bob\": 42, \"carol\": 27\]" \
		"[$b] --summary: a map's entries"
done
t_done
