#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# globs.sh - a FUNC glob probes every match it can and names, on one line of stderr, the
# matches it skipped because they cannot be probed (Go's runtime.etext: a symbol past the
# code; a function without a return instruction for %return); one such match no longer
# fails the whole glob. A glob whose every match is skipped, and a plain name, are errors.
. "$(dirname "$0")/lib.sh"

go=$UPFT_TARGETS/go/orders
[ -x "$go" ] || t_bail "$go not built (tests/targets/build.sh)"

upft_run -x "$go" -D 'runtime.e*'
t_is "$UPFT_RC" 0 "'runtime.e*' (runtime.etext has no code): exit 0"
t_like "$UPFT_OUT" '^p:probe_orders/runtime_e .*/go/orders:0x' "... the other matches are defined"
t_is "$UPFT_ERR" "upfront: 'runtime.e*' skipped 1 match: runtime.etext (no code in the file)" \
	"... and the skipped one named on stderr"

upft_run -x "$go" -D 'runtime.goexit*%return'
t_is "$UPFT_RC" 0 "'runtime.goexit*%return' (goexit and goexit1 never return): exit 0"
t_like "$UPFT_OUT" '^p:probe_orders/runtime_goexit__return .*/go/orders:0x' \
	"... goexit0's return instructions are defined"
t_is "$UPFT_ERR" "upfront: 'runtime.goexit*%return' skipped 2 matches: runtime.goexit (no return instruction), runtime.goexit1 (no return instruction)" \
	"... the two without a return are named"

upft_run -x "$go" -D 'runtime.*%return'
t_is "$UPFT_RC" 0 "'runtime.*%return': exit 0"
t_like "$UPFT_ERR" "^upfront: 'runtime.\\*%return' skipped [0-9]+ matches: .* and [0-9]+ more \\(-v lists them\\)\$" \
	"... a long list is cut"
t_is "$(printf '%s\n' "$UPFT_ERR" | wc -l)" 1 "... on one line"

upft_run -x "$go" -D 'runtime.ete*'
t_is "$UPFT_RC" 2 "a glob whose only match cannot be probed: exit 2"
t_like "$UPFT_ERR" '^upfront: address 0x[0-9a-f]+ is not in an executable segment of orders' \
	"... with its reason"
t_is "$(printf '%s\n' "$UPFT_ERR" | wc -l)" 1 "... on one line"
upft_run -x "$go" -D 'runtime.goexit%return'
t_is "$UPFT_RC" 2 "a plain name without a return instruction: exit 2"
t_like "$UPFT_ERR" '^upfront: no return instruction in runtime.goexit' "... with its reason"

t_done
