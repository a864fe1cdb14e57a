#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# text-escapes.sh - text from a traced program never lies: JSON keeps valid UTF-8 as it is,
# shows a control character as itself escaped (U+0085 is "\u0085", not "\u00c2\u0085", which
# reads as two other characters) and a byte that is not UTF-8 as a lone surrogate "\udcXX"
# (not "\u00ff", which reads as a real 'ÿ'); the text line escapes the bidi control U+202E
# (it turned the rest of the line around on the terminal) and the other format controls.
. "$(dirname "$0")/lib.sh"
upft_need_root

C=$UPFT_TARGETS/c/calls-O2
[ -x "$C" ] || t_bail "targets not built (tests/targets/build.sh $UPFT_TARGETS)"
S=$'a\xc2\x85b\xffc\xe2\x80\xaed\xe2\x80\x8be\xc3\xa9'	# U+0085, ff, U+202E, U+200B, é

upft_run --json -x "$C" 'said s' -- "$C" text "$S"
t_is "$UPFT_RC" 0 "JSON: exit 0"
t_like "$UPFT_OUT" '"args":\{"s":"a\\u0085b\\udcffc\\u202ed\\u200be'$'\xc3\xa9''"\}' \
	"JSON: U+0085 as \\u0085, byte ff as \\udcff, U+202E and U+200B escaped, é kept"
t_is "$(python3 -c '
import json, sys
s = json.loads(sys.stdin.readline())["args"]["s"]
print(s.encode("utf-8", "surrogateescape") == sys.argv[1].encode("utf-8", "surrogateescape"))
' "$S" <<<"$UPFT_OUT")" True "JSON: the string decodes back to the exact bytes (surrogateescape)"
t_unlike "$UPFT_OUT" '\\u00c2|\\u00ff' "JSON: no byte shown as a Latin-1 character"

upft_run --stdio -x "$C" 'said s' -- "$C" text "$S"
t_is "$UPFT_RC" 0 "text: exit 0"
t_like "$UPFT_OUT" ' said s="a\\xc2\\x85b\\xffc\\xe2\\x80\\xaed\\xe2\\x80\\x8be'$'\xc3\xa9''"$' \
	"text: C1, the invalid byte, U+202E and U+200B escaped, é kept"
t_is "$(printf '%s' "$UPFT_OUT" | grep -c $'\xe2\x80\xae')" 0 "text: no raw U+202E on the terminal"
t_done
