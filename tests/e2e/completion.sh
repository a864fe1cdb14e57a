#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# completion.sh - completion/upfront.bash: sourced in bash, driven through COMP_LINE,
# COMP_POINT, COMP_WORDS and COMP_CWORD as bash sets them, COMPREPLY compared exactly
# (options, functions of -x BINARY, variables and fields in a quoted probe word, -e events,
# --metrics-label PROBE:ARG, the command after --); then once through real readline in tmux
# (a quoted probe word stays open after a unique match). Needs no root but for -e's events.
. "$(dirname "$0")/lib.sh"

bin=$UPFT_TARGETS/c/orders-O0
[ -x "$bin" ] || t_bail "$bin is not built (tests/targets/build.sh)"
comp_file=$UPFT_SRCDIR/completion/upfront.bash
[ -r "$comp_file" ] || t_bail "no $comp_file"

# shellcheck source=../../completion/upfront.bash
. "$comp_file"
U=$UPFRONT
# the completion runs the upfront being completed: the one under test
PATH=$(dirname "$U"):$PATH

# comp LINE BASHWORD... - complete at the end of LINE, COMP_WORDS as bash splits it (given
# by the caller: bash also splits at COMP_WORDBREAKS, ':' '=' '(' ..., outside quotes);
# prints COMPREPLY one per line
comp() {
	COMP_LINE=$1
	COMP_POINT=${#1}
	shift
	COMP_WORDS=("$@")
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMPREPLY=()
	_upfront upfront 2>/dev/null
	[ ${#COMPREPLY[@]} -eq 0 ] || printf '%s\n' "${COMPREPLY[@]}"
}

t_is "$(complete -p upfront)" "complete -F _upfront upfront" "sourcing it registers _upfront"

# --- options ---------------------------------------------------------------------------------
t_is "$(comp "upfront --metrics" upfront --metrics)" "--metrics
--metrics-label
--metrics-label-max" "--metrics<Tab>: the three metrics options"
t_is "$(comp "upfront --st" upfront --st)" "--stdio
--stack
--string-size" "--st<Tab>"
t_is "$(comp "upfront --stack=" upfront --stack =)" "=dwarf
=dwarf,1024
=dwarf,2048
=fp" "--stack=<Tab>: the modes (bash's word is the '=')"
t_is "$(comp "upfront --stack=dwarf," upfront --stack = dwarf,)" "dwarf,1024
dwarf,2048" "--stack=dwarf,<Tab>: sizes"
want=$("$U" --help | grep -oE '(^|[ ,])--[a-z][a-z-]*' | sed 's/^[ ,]//' | sort -u)
got=$(comp "upfront --" upfront -- | grep -- '^--' | sort -u)
t_is "$got" "$want" "every long option of --help is completed, and no other"

# --- functions of -x BINARY ------------------------------------------------------------------
t_is "$(comp "upfront -x $bin proc" upfront -x "$bin" proc)" "process_batch
process_order" "a probe word: the functions of -x BINARY (upfront -F)"
t_is "$(comp "upfront -x $bin 'process_o" upfront -x "$bin" "'process_o")" "process_order
process_order " "a quoted word: a unique function, and again with a blank (the quote stays open)"
t_is "$(comp "upfront -x $bin 'ev=process_o" upfront -x "$bin" "'ev=process_o")" "ev=process_order
ev=process_order " "after EVENT=: the functions"
t_is "$(comp "upfront -x $bin -F check_" upfront -x "$bin" -F check_)" "check_customer" \
	"-F GLOB: the functions"
t_is "$(comp "upfront process_ord -- $bin" upfront process_ord -- "$bin" | sort | head -1)" \
	"$bin" "after --: files for a command with a path"
reach=$UPFT_TARGETS/c/reach-O2
[ -x "$reach" ] || t_bail "$reach is not built (tests/targets/build.sh)"
t_is "$(comp "upfront -x $reach scale_q" upfront -x "$reach" scale_q)" "scale_qty" \
	"an inlined-only function, without -F's '(inlined)' marker"
libc=$(ldd "$reach" | awk '$1 == "libc.so.6" { print $3 }')
t_is "$(comp "upfront -x $libc pthread_kill@" upfront -x "$libc" pthread_kill@)" \
	"pthread_kill@$UPFT_GLIBC_BASE" "an old symbol version by the name that probes it"
t_is "$(comp "upfront -x $bin 'nosuchfunc" upfront -x "$bin" "'nosuchfunc")" "" \
	"no function: nothing"

# --- variables and fields --------------------------------------------------------------------
t_is "$(comp "upfront -x $bin 'process_order " upfront -x "$bin" "'process_order ")" \
"process_order o
process_order sum
process_order \$params
process_order \$vars" "after the place: its variables (upfront -V) and \$params, \$vars"
t_like "$(comp "upfront -x $bin 'process_order%return " upfront -x "$bin" \
	"'process_order%return ")" 'return \$retval$' "\$retval at a %return place"
t_is "$(comp "upfront -x $bin 'process_order o->cu" upfront -x "$bin" "'process_order o->cu")" \
"process_order o->customer
process_order o->customer " "after EXPR->: its fields (upfront -V 'PLACE EXPR')"
t_is "$(comp "upfront -x $bin 'process_order o->customer->n" upfront -x "$bin" \
	"'process_order o->customer->n")" "process_order o->customer->name
process_order o->customer->name " "fields through two pointers"
t_is "$(comp "upfront -x $bin 'process_order id=o.it" upfront -x "$bin" \
	"'process_order id=o.it")" "process_order id=o.items
process_order id=o.items " "after NAME= and '.'"
t_is "$(comp "upfront -V -x $bin 'process_order o.customer.ag" upfront -V -x "$bin" \
	"'process_order o.customer.ag")" "process_order o.customer.age
process_order o.customer.age " "-V 'PLACE EXPR': the fields"

# --- option arguments ------------------------------------------------------------------------
t_is "$(comp "upfront -x $(dirname "$bin")/orders-O" upfront -x "$(dirname "$bin")/orders-O" |
	sort | head -2)" "$(dirname "$bin")/orders-O0
$(dirname "$bin")/orders-O0-nopie" "-x: files"
if [ -r /sys/kernel/tracing/available_events ]; then
	t_is "$(comp "upfront -e syscalls:sys_enter_conn" upfront -e syscalls : sys_enter_conn)" \
		"sys_enter_connect" "-e: tracefs events, cut where bash's word starts (after ':')"
fi
t_is "$(comp "upfront -x $bin 'process_order id=o->id' 'process_order%return' --metrics-label " \
	upfront -x "$bin" "'process_order id=o->id'" "'process_order%return'" --metrics-label "")" \
	"process_order:id" "--metrics-label: PROBE:ARG of the probes on the line (helpers left out)"
t_is "$(comp "upfront -x $bin 'process_order id=o->id' --metrics-label process_order:" \
	upfront -x "$bin" "'process_order id=o->id'" --metrics-label process_order :)" ":id" \
	"--metrics-label PROBE:<Tab>: the argument, from bash's ':' word on"
t_is "$(comp "upfront --pid $$" upfront --pid "$$" | grep -cx "$$")" 1 "-p: process ids"
t_is "$(comp "upfront --metrics " upfront --metrics "")" "" "--metrics ADDR:PORT: nothing"

# --- make install puts it where bash-completion loads it -------------------------------------
bc=$(pkg-config --variable=completionsdir bash-completion 2>/dev/null)
bc=${bc%/completions}/bash_completion
[ -r "$bc" ] || bc=/usr/share/bash-completion/bash_completion
[ -r "$bc" ] || t_bail "bash-completion is not installed"
if [ -e "$UPFT_BUILDDIR/Makefile" ]; then
	root=$UPFT_TMP/root
	make -s -C "$UPFT_BUILDDIR" install DESTDIR="$root" >"$UPFT_TMP/install.log" 2>&1
	t_is "$?" 0 "make install DESTDIR=..." || t_diag "$(tail -5 "$UPFT_TMP/install.log")"
	installed=$(find "$root" -path '*/completions/upfront' -type f)
	t_like "$installed" '/bash-completion/completions/upfront$' \
		"make install puts the completion in bash-completion's completions directory"
	t_is "$(cmp "$installed" "$comp_file" && echo same)" same "the installed file is ours"
	got=$(BASH_COMPLETION_USER_DIR=${installed%/completions/upfront} bash --norc -c \
		". '$bc'; __load_completion upfront; complete -p upfront" 2>&1)
	t_is "$got" "complete -F _upfront upfront" "bash-completion loads it for upfront on demand"
	make -s -C "$UPFT_BUILDDIR" uninstall DESTDIR="$root" >/dev/null 2>&1
	t_is "$(find "$root" -type f)" "" "make uninstall removes it again"
fi

# --- with bash-completion loaded, through readline in tmux -----------------------------------
command -v tmux >/dev/null 2>&1 || t_bail "tmux is not installed"
sess=upft_comp$$
trap 'tmux kill-session -t "$sess" 2>/dev/null; upft_cleanup' EXIT
tmux new-session -d -s "$sess" -x 200 -y 20 "bash --norc --noprofile" || t_bail "tmux"
tmux send-keys -t "$sess" "PS1='$ '; . '$bc'; . '$comp_file'; PATH='$(dirname "$U")':\$PATH; clear" Enter
# the line is typed once readline has the terminal (its prompt alone on the cleared screen):
# keys sent before that are echoed by the tty and stay on the screen before the prompt (under
# 5.10 and TCG bash-completion took long enough to load for it)
prompt_alone() {
	[ "$(tmux capture-pane -t "$sess" -p | sed '/^$/d')" = '$' ]
}
scale=${UPFT_TIMEOUT_SCALE:-1}
upft_until $((30 * scale)) prompt_alone	# (if not, the check below shows the screen)
line="upfront -x $bin 'process_order o->cu"
tmux send-keys -t "$sess" -l "$line"
tmux send-keys -t "$sess" Tab
want="$ upfront -x $bin 'process_order o->customer"
screen=
for _ in $(seq $((50 * scale))); do
	sleep 0.1
	screen=$(tmux capture-pane -t "$sess" -p | grep -F "$ upfront" | tail -1)
	[ "$screen" != "$ $line" ] && [ -n "$screen" ] && break
done
t_is "$screen" "$want" "readline: Tab completes the field and leaves the quote open"
tmux kill-session -t "$sess"

t_done
