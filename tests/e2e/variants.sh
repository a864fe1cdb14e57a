#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# variants.sh - Rust enums with data in the text output, as Rust's {:?} shows them (the JSON
# form is in cases/types.cases)
. "$(dirname "$0")/lib.sh"
upft_need_root

for o in O0 O1; do
	bin=$UPFT_TARGETS/rust/types-$o
	[ -x "$bin" ] || t_bail "$bin not built (tests/targets/build.sh)"
	upft_run --stdio 'types::zoo::maybe *o p *r' 'types::zoo::shape *s' 'types::zoo::msg *m' \
		-- "$bin"
	t_is "$UPFT_RC" 0 "[$o] tracing maybe, shape and msg exits 0"
	t_like "$UPFT_OUT" " maybe o=Some\(5\) p=Some\(0x[0-9a-f]+\) r=Ok\(77\)\$" \
		"[$o] Some(5), Some(pointer), Ok(77)"
	t_like "$UPFT_OUT" " maybe o=None p=None r=Err\(\"no stock\"\)\$" "[$o] None, None, Err(\"...\")"
	t_like "$UPFT_OUT" " shape s=Circle\(3\)\$" "[$o] a tuple variant"
	t_like "$UPFT_OUT" " shape s=Rect \{ w: 4, h: 5 \}\$" "[$o] a struct variant"
	t_like "$UPFT_OUT" " shape s=Empty\$" "[$o] a unit variant"
	t_like "$UPFT_OUT" " msg m=Write\(\"hi\"\)\$" "[$o] the niche layout's dataful variant"
	t_like "$UPFT_OUT" " msg m=Move \{ x: -1, y: 2 \}\$" "[$o] ... a variant named by the niche"
	t_like "$UPFT_OUT" " msg m=Quit\$" "[$o] ... a unit variant named by the niche"
done
t_done
