#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# docs-agree.sh - one list of options: the getopt table in src/main.c is the source; --help,
# the man page's OPTIONS and the bash completion must name exactly its options (long and
# short), and the man page's KEYS every key of the curses view's help overlay. Fails naming
# what is missing where. No root needed.
. "$(dirname "$0")/lib.sh"

MAIN=$UPFT_SRCDIR/src/main.c
MAN=$UPFT_SRCDIR/man/upfront.1
COMP=$UPFT_SRCDIR/completion/upfront.bash
TUI=$UPFT_SRCDIR/src/tui.c

# the long options of the getopt table
src=$(sed -n '/^static const struct option long_options/,/^};/p' "$MAIN" |
	grep -o '{ "[a-z-]*"' | sed 's/{ "//;s/"//' | sort -u)
[ "$(printf '%s\n' "$src" | wc -l)" -ge 30 ]
t_ok $? "the getopt table lists the long options ($(printf '%s\n' "$src" | wc -l))"
# the short ones of the getopt string
shorts=$(grep -o 'getopt_long(argc, argv, "[^"]*"' "$MAIN" | sed 's/.*"\(.*\)"/\1/' |
	tr -d ':' | grep -o . | sort -u)

help=$("$UPFRONT" --help)
help_long=$(printf '%s\n' "$help" | grep -o -- '--[a-z][a-z-]*' | sed 's/^--//' | sort -u)
man_opts=$(sed -n '/^\.SH OPTIONS/,/^\.SH /p' "$MAN")
man_long=$(printf '%s\n' "$man_opts" | grep -A1 '^\.TP' | grep -o '\\-\\-[a-z][a-z\\-]*' |
	sed 's/\\-/-/g;s/^--//' | sort -u)
man_all=$(grep -o '\\-\\-[a-z][a-z\\-]*' "$MAN" | sed 's/\\-/-/g;s/^--//' | sort -u)
comp=$(sed -n "/local opts='/,/'/p" "$COMP" | grep -o -- '--[a-z][a-z-]*' | sed 's/^--//' |
	sort -u)

# differ WHAT A B - the names in A missing from B, or nothing
differ() {
	comm -23 <(printf '%s\n' "$2") <(printf '%s\n' "$3") | tr '\n' ' '
}

for where in help comp; do
	case $where in
	help) list=$help_long ;;
	comp) list=$comp ;;
	esac
	miss=$(differ x "$src" "$list")
	t_is "$miss" "" "every long option of the table is in $where"
	extra=$(differ x "$list" "$src")
	t_is "$extra" "" "$where names no long option the table lacks"
done
# the modes (-F ...) have their entries in MODES, the rest in OPTIONS: the whole page
miss=$(differ x "$src" "$man_all")
t_is "$miss" "" "every long option of the table is in the man page"
miss=$(differ x "$man_long" "$src")
t_is "$miss" "" "the man page's OPTIONS name no long option the table lacks"

for s in $shorts; do
	printf '%s\n' "$help" | grep -q -- "^ *-$s[, ]"
	t_ok $? "-$s is in --help"
	grep -q "^\\.B[IR]* \\\\-$s\\b" "$MAN"
	t_ok $? "-$s has an entry in the man page"
	sed -n "/local opts='/,/'/p" "$COMP" | grep -q -- "-$s\\b"
	t_ok $? "-$s is in the completion"
done
t_unlike "$help" '%%' "--help prints no doubled %"

# the curses view's keys: each key of its help overlay has an entry under KEYS
keys=$(sed -n '/^void tui_build_help/,/^}/p' "$TUI" | grep -o '^[[:space:]]*"[^"]*", "' |
	sed 's/^[[:space:]]*"//;s/", "$//')
[ -n "$keys" ]
t_ok $? "the help overlay's keys are found in src/tui.c"
man_keys=$(sed -n '/^\.SH KEYS/,/^\.SH /p' "$MAN" | grep -A1 '^\.TP' | grep '^\.B ' |
	sed 's/^\.B //;s/\\-/-/g')
while IFS= read -r k; do
	[ -n "$k" ] || continue
	printf '%s\n' "$man_keys" | grep -qxF -- "$k"
	t_ok $? "KEYS in the man page: '$k'"
done <<<"$keys"

t_done
