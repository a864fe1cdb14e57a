#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# names.sh - names from a hostile binary (a function, a variable, a type, a field and a source
# file whose names hold a newline, ESC/OSC sequences, CR) and probe text with ESC/CR: -F, -V,
# -L, -a, -l, errors, text and JSON show each one escaped on its own line, exactly; no fake
# line appears and no escape sequence reaches the terminal
. "$(dirname "$0")/lib.sh"

upft_need_root
python3 "$UPFT_SRCDIR/tests/e2e/hostile-names.py" "$UPFT_TMP" || t_bail "cannot build the hostile target"
H=$UPFT_TMP/hostile
ESC=$'\e'
SRC="$UPFT_TMP/src\\e[2J\\nx.c"		# the source file's name, escaped

upft_run -x "$H" -F
t_is "$UPFT_RC" 0 "-F exits 0"
t_like "$UPFT_OUT" '^evil\\nfake_func\\e\[31m$' "-F: the function's name escaped on one line"
t_unlike "$UPFT_OUT" '^fake_func' "-F: no fake function line"
t_unlike "$UPFT_OUT" "$ESC" "-F: no ESC reaches the terminal"
# (arm64: crt1's call_weak_fn besides; its entry probes go to the first instruction the
# kernel simulates, not always +0x0: placement.sh)
nf=11 at0='\+0x0'
[ "$UPFT_ARCH" = arm64 ] && nf=12 at0='\+0x[0-9a-f]+'
t_is "$(printf '%s\n' "$UPFT_OUT" | wc -l)" $nf "-F: one line per function"

upft_run -x "$H" -V 'evil*'
t_is "$UPFT_RC" 0 "-V exits 0"
t_is "$(printf '%s\n' "$UPFT_OUT" | sed 's/+0x[0-9a-f]*>$/+OFF>/')" 'Available variables at evil\nfake_func\e[31m
        @<evil\nfake_func\e[31m+OFF>
		struct T\e[2J *	v\e]0;pwn\x07\nfake_var' "-V: function, type and variable names escaped, exactly"

upft_run -x "$H" -V normal_func
t_is "$(printf '%s\n' "$UPFT_OUT" | sed -n 3p)" $'\t\tstruct T\\e[2J *\tp' "-V: a type name escaped"

upft_run -x "$H" -L 'evil*'
t_is "$UPFT_RC" 0 "-L exits 0"
t_is "$(printf '%s\n' "$UPFT_OUT" | head -1)" "<evil*@$SRC:0>" "-L: the source file's name escaped in the header"
t_unlike "$UPFT_OUT" "$ESC" "-L: no ESC reaches the terminal"

# errors: hints with the binary's names, the user's text with CR and ESC
upft_run -x "$H" -D 'normal_func p->nosuch'
t_is "$UPFT_RC" 2 "an unknown field exits 2"
t_is "$UPFT_ERR" "upfront: 'T\\e[2J' has no field 'nosuch' at 'nosuch' (column 16 of 'normal_func p->nosuch'); fields: f\\rfake, n" \
	"the error's type name and field hint escaped, exactly"
upft_run -x "$H" -D $'nosuch\rfoo'
t_is "${UPFT_ERR%%; closest:*}" "upfront: no function 'nosuch' in hostile at 'nosuch' (column 1 of 'nosuch\\rfoo')" \
	"probe text with CR echoed escaped"
upft_run -x "$H" -D $'normal_func \e]0;pwn\a'
t_is "$UPFT_RC" 2 "probe text with an OSC sequence exits 2"
t_is "$UPFT_ERR" "upfront: unexpected control character at '\\e' (column 13 of 'normal_func \\e]0;pwn\\x07')" \
	"probe text with an OSC sequence echoed escaped, exactly"
upft_run -x "$H" -D $'normal_func +0(%di)\e[2J'
t_is "$UPFT_ERR" "upfront: a raw fetcharg is printable ASCII without blanks at '\\e' (column 20 of 'normal_func +0(%di)\\e[2J')" \
	"a raw fetcharg with ESC: refused, echoed escaped"
upft_run -x "$H$ESC[2J" -D normal_func
t_is "$UPFT_ERR" "upfront: no such binary '$H\\e[2J'" "a binary's name with ESC echoed escaped"

# text and JSON: the event is named as an identifier; a stack frame in the hostile function
upft_run -x "$H" --stdio --stack inner -- "$H"
t_is "$UPFT_RC" 0 "trace with --stack exits 0"
t_like "$UPFT_OUT" '^	 +[0-9a-f]+ evil\\nfake_func\\e\[31m\+0x[0-9a-f]+ \(' "text: the stack's symbol escaped"
t_unlike "$UPFT_OUT" '^fake_func' "text: no fake line"
t_unlike "$UPFT_OUT" "$ESC" "text: no ESC"
upft_run -x "$H" --json --stack inner -- "$H"
t_like "$UPFT_OUT" '"stack":\["inner'"$at0"'","evil\\nfake_func\\u001b\[31m\+0x[0-9a-f]+"' "JSON: the symbol as a JSON string"
t_is "$(printf '%s\n' "$UPFT_OUT" | python3 -c 'import json,sys; print(json.loads(sys.stdin.readline())["stack"][1][:14])')" \
	$'evil\nfake_func' "JSON: the name decodes to the binary's bytes"
upft_run -x "$H" --stdio 'evil*' -- "$H"
t_like "$UPFT_OUT" '^[0-9.]+ hostile/[0-9]+ evil_fake_func_31m$' "text: the event is named as an identifier"

# -a prints where it added, -l where the events are: both escaped
upft_run -x "$H" -g "$UPFT_GROUP" -a 'evil*'
t_is "$UPFT_RC" 0 "-a exits 0"
t_like "$UPFT_ERR" "^  $UPFT_GROUP:evil_fake_func_31m \\(on evil\\\\nfake_func\\\\e\\[31m in " "-a: the function's name escaped"
upft_run -l "$UPFT_GROUP:*"
t_like "$UPFT_OUT" "^  $UPFT_GROUP:evil_fake_func_31m \\(on evil\\\\nfake_func\\\\e\\[31m$at0 in " "-l: the symbol escaped"
t_unlike "$UPFT_OUT" "$ESC" "-l: no ESC"
upft_run -d "$UPFT_GROUP:*"

t_done
