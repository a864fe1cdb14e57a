#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# whole.sh - whole values in text, spelled as the language's debugger prints them: C and C++
# as gdb ("p *s"), Go as delve ("print o"), Rust as its {:?}; what the byte budget leaves out
# is "..."; -D shows the fields a whole value is fetched as. The JSON side is
# tests/e2e/cases/whole.cases. Targets: tests/targets/{c,cpp}/whole.*, go/whole,
# rust/types; each expected line was printed by gdb or delve at the function's entry
# (pointers aside, which differ per run).
. "$(dirname "$0")/lib.sh"

upft_need_root

# text TARGET PROBE... - the values of the first event (what follows "probe ") in text
text() {
	local bin=$UPFT_TARGETS/$1
	shift
	upft_run --stdio --max-events 1 -x "$bin" "$@" -- "$bin"
	UPFT_LINE=$(printf '%s\n' "$UPFT_OUT" | grep -m1 -E '^[0-9]+\.[0-9]{6} ' |
		sed -E 's/^[0-9.]+ [^ ]+ [^ ]+ //')
}

# whole EXPECTED DESC - $UPFT_LINE is EXPECTED; without array types (every 8 bytes of text a
# field of its own: the 128 fields are used up sooner), EXPECTED up to where the line first
# differs, which is where it elides ("..." or Rust's ".."), or just before
arrays=$(upft_kernel array)
whole() {
	if [ "$arrays" = yes ]; then
		t_is "$UPFT_LINE" "$1" "$2"
		return
	fi
	t_ok "$(python3 -c 'import re, sys
got, want = sys.argv[1], sys.argv[2]
i = next((k for k, (a, b) in enumerate(zip(got, want)) if a != b), min(len(got), len(want)))
sys.exit(0 if got == want or re.search(r"\.\.\.?[ }\]]", got[max(0, i - 40):]) else 1)' \
		"$UPFT_LINE" "$1"; echo $?)" \
		"$2 (without arrays: the same up to where it elides: $UPFT_LINE)"
}

for o in O0 O2; do
	# gdb: $1 = {name = 0x... "square", tag = "sq\000\000\000\000\000", origin = {x = 1,
	# y = -2}, ... next = 0x... <s2>, ...}: upfront shows char * as its text and a char[N]
	# up to its NUL
	text c/whole-$o 'draw *s'
	t_like "$UPFT_LINE" '^s=\{name = "square", tag = "sq", origin = \{x = 1, y = -2\}, corners = \{\{x = 0, y = 0\}, \{x = 10, y = 10\}\}, color = GREEN, n = \{i = 16909060, b = \{4, 3, 2, 1\}\}, visible = 1, layer = 9, \{zone = 3, shelf = 12\}, next = 0x[0-9a-f]+, scale = 1\.5, grid = \{\{1, 2, 3\}, \{4, 5, 6\}\}\}$' \
		"C -$o: *s as gdb prints it"
	text c/whole-$o 'mat *m p'
	t_is "$UPFT_LINE" 'm={1, 2, 3} p={x = 3, y = 4}' "C -$o: a row, a struct in a register"
	text c/whole-$o 'weigh *b'
	if [ "$arrays" = yes ] && [ "$(upft_kernel imm)" = yes ]; then
		t_like "$UPFT_LINE" '^b=\{v = \{0, 1, 2, .*, 39\}, pts = \{\{x = 0, y = 0\}, .*, \{x = 27, y = -27\}\.\.\.\}, \.\.\.\}$' \
			"C -$o: a struct past the budget ends in ..."
	else
		# where the budget ends moves with what the kernel lacks (a field per u64 word
		# without arrays, none for the constants upfront keeps without \IMM): pts
		# {x = K, y = -K} from K = 0 on, up to where it ends in ...
		t_ok "$(python3 -c 'import re, sys
l = sys.argv[1]
m = re.fullmatch(r"b=\{v = \{0, 1, 2, .*, 39\}, pts = \{(.*)\.\.\.\}, \.\.\.\}", l)
pts = re.findall(r"\{x = (\d+)(?:, y = -(\d+))?", m.group(1)) if m else []
sys.exit(0 if pts and all(int(x) == k and y in ("", x) for k, (x, y) in enumerate(pts)) else 1)' \
			"$UPFT_LINE"; echo $?)" "C -$o: a struct past the budget ends in ... ($UPFT_LINE)"
	fi
	text c/whole-$o --value-size 24 'draw *s'
	t_is "$UPFT_LINE" 's={name = "square", ...}' \
		"C -$o: --value-size 24: the first member (its pointers' guards count too)"

	# gdb: {<geo::Named> = {name = "box", rank = 2}, ..., sides = std::vector of length 4,
	# capacity 6 = {5, 6, 7, 8}, ..., u = {i = 42, f = 5.88545355e-44}, filled = true}
	text cpp/whole-$o 'geo::Shape::area *this'
	t_is "$UPFT_LINE" 'this={<geo::Named> = {name = "box", rank = 2}, origin = {x = 3, y = 4}, sides = std::vector of length 4, capacity 6 = {5, 6, 7, 8}, marks = std::vector of length 2, capacity 2 = {{x = 1, y = 2}, {x = 3, y = 4}}, u = {i = 42, f = 5.8854535501642317e-44}, filled = true}' \
		"C++ -$o: *this as gdb prints it"
	# gdb: {<shop::Base> = {_vptr.Base = 0x... <vtable for shop::Derived+16>, id = 7, status =
	# shop::Status::Busy}, name = "bob", qty = std::vector of length 3, capacity 3 = {1, 2, 3},
	# level = 2}
	text cpp/actors-$o 'shop::Derived::describe *this'
	t_is "$UPFT_LINE" 'this={<shop::Base> = {_vptr.Base = vtable for shop::Derived+0x10, id = 7, status = Busy}, name = "bob", qty = std::vector of length 3, capacity 3 = {1, 2, 3}, level = 2}' \
		"C++ -$o: a base class with its vtable pointer"
done

for b in whole whole-N; do
	# delve: main.Order {Base: main.Base {ID: 7}, ..., Owner: *main.Point {X: 5, Y: 6}, ...,
	# Spare: *main.Point nil} (delve shows Items' elements as pointers past its depth)
	text go/$b 'main.submit o'
	whole 'o=main.Order {Base: main.Base {ID: 7}, Name: "alice", Where: main.Point {X: 1, Y: -2}, Items: []main.Item len: 2, cap: 2, [{Sku: "sku-a", Qty: 2},{Sku: "sku-b", Qty: 3}], Counts: []int len: 3, cap: 5, [10,20,30], Grid: [2][3]int8 [[1,2,3],[4,5,6]], Owner: *main.Point {X: 5, Y: 6}, Paid: true, Hook: main.double, Note: "", Spare: *main.Point nil}' \
		"Go $b: a struct as delve prints it"
	text go/$b 'main.check o'
	[ "$arrays" = yes ] && tail=', .*, Spare: \*main\.Point nil\}$' || tail=', .*\.\.\.\}$'
	t_like "$UPFT_LINE" '^o=\*main\.Order \{Base: main\.Base \{ID: 7\}, Name: "alice"'"$tail" \
		"Go $b: a pointer alone with what it points to (delve: print o)"
	upft_run --stdio --max-events 2 -x "$UPFT_TARGETS/go/$b" 'main.maybe o' -- "$UPFT_TARGETS/go/$b"
	t_like "$UPFT_OUT" 'maybe o=nil' "Go $b: a nil pointer is nil"
	text go/$b 'main.apply f xs'
	t_is "$UPFT_LINE" 'f=main.double xs=[]int len: 3, cap: 5, [10,20,30]' \
		"Go $b: a func value by name, a slice"
done

text rust/orders-O1 'orders::shop::add *o'
whole 'o=Order { id: 11, name: "alice", tags: len: 2, cap: 2, ["new", "priority"], items: len: 3, cap: 3, [Item { name: "pen", qty: 2 }, Item { name: "ink", qty: 3 }, Item { name: "pad", qty: 4 }], kind: Wholesale, paid: true, weight: 1.25 }' \
	"Rust: Vecs with their length and capacity"
text rust/types-O0 'types::zoo::boxed *b'
t_is "$UPFT_LINE" 'b=Animal { name: "cat", legs: 4, weight: 5 }' "Rust: a struct as {:?} shows it"

# -D: the whole value's fields, each leaf named after its path; its own field a constant
# (arm64: at -O2, where x1 holds it; its -O0 probe stays past the prologue, in sp slots)
if [ "$UPFT_ARCH" = arm64 ]; then
	upft_run -x "$UPFT_TARGETS/c/whole-O2" -D 'mat p'
	preg=%x1
else
	upft_run -x "$UPFT_TARGETS/c/whole-O0" -D 'mat p'
	preg=%si
fi
# (without \IMM the constant is kept by upfront: no field)
[ "$(upft_kernel imm)" = yes ] && own=' p=\\0:u8' || own=
t_like "$UPFT_OUT" "$own p_x=$preg:s32 p_y=$preg:b32@32/64\$" "-D: a struct in a register, by parts"

t_done
