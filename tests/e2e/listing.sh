#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# listing.sh - -F lists functions by the language's names (demangled, globbed), -V lists the
# variables at a place with their types; neither touches tracefs
. "$(dirname "$0")/lib.sh"

T=$UPFT_TARGETS
[ -x "$T/c/orders-O2" ] || t_bail "test targets not built (tests/targets/build.sh)"

upft_run -x "$T/c/orders-O2" -F 'process_*'
t_is "$UPFT_RC" 0 "C: -F GLOB exits 0"
t_like "$UPFT_OUT" '^process_order$' "C: -F lists process_order"
t_like "$UPFT_OUT" '^process_batch$' "C: -F lists process_batch"
t_unlike "$UPFT_OUT" '^audit_order$' "C: -F GLOB lists only matches"

upft_run -x "$T/cpp/actors-O2" -F 'shop::*'
t_like "$UPFT_OUT" '^shop::price(\(int\))?$' "C++: -F shows shop::price demangled"
t_like "$UPFT_OUT" '^shop::Derived::describe(\(.*\))?$' "C++: -F shows a method by its qualified name"
t_unlike "$UPFT_OUT" '_Z' "C++: -F shows no mangled names"

upft_run -x "$T/go/orders" -F 'main.(*Store).*'
t_like "$UPFT_OUT" '^main\.\(\*Store\)\.Add$' "Go: -F lists main.(*Store).Add"
upft_run -x "$T/go/orders" -F 'example.com/orders/store.*'
t_like "$UPFT_OUT" '^example\.com/orders/store\.\(\*Ledger\)\.Record$' "Go: -F with a package path"

upft_run -x "$T/rust/orders-O1" -F 'orders::shop::*'
t_like "$UPFT_OUT" '^orders::shop::greet$' "Rust: -F lists orders::shop::greet demangled"
t_unlike "$UPFT_OUT" '17h[0-9a-f]{16}E' "Rust: no mangled hashes"

upft_run -x "$T/c/orders-O2" -V process_order
t_is "$UPFT_RC" 0 "C: -V exits 0"
t_like "$UPFT_OUT" 'struct order ?\*.*\bo\b' "C: -V shows o with its type"
upft_run -x "$T/c/orders-O2" -V set_limits
for v in 'int.*\ba\b' 'unsigned int.*\bb\b' 'long.*\bc\b' 'short.*\bd\b' 'char.*\be\b' \
	'(_Bool|bool).*\bf\b' 'enum tier.*\bt\b'; do
	t_like "$UPFT_OUT" "$v" "C: -V set_limits shows $v"
done
upft_run -x "$T/go/orders" -V 'main.process'
t_like "$UPFT_OUT" 'string.*\bname\b' "Go: -V shows name string"
t_like "$UPFT_OUT" '\[\]int.*\bids\b' "Go: -V shows ids []int"
upft_run -x "$T/cpp/actors-O0" -V 'shop::Derived::describe'
t_like "$UPFT_OUT" 'Item.*&.*\bit\b' "C++: -V shows the reference parameter it"
t_like "$UPFT_OUT" '\bthis\b' "C++: -V shows this"

upft_run -x "$T/c/orders-O2" -V nosuchfunction_upft
t_is "$UPFT_RC" 2 "-V of an unknown function exits 2"

# -L on Go functions named with their import path: main.(*Store).Add, and a method of the
# package example.com/orders/store (a path with dots and slashes before the receiver)
gosrc=$UPFT_SRCDIR/tests/targets/go/orders
upft_run -x "$T/go/orders" -L 'main.(*Store).Add'
t_is "$UPFT_RC" 0 "Go: -L 'main.(*Store).Add' exits 0"
t_like "$UPFT_OUT" "^<main\\.\\(\\*Store\\)\\.Add@$gosrc/main\\.go:0>\$" "Go: -L names the function and its file"
t_like "$UPFT_OUT" '^      0  func \(s \*Store\) Add\(o \*Order\) \{$' "Go: -L line 0 is the func line, marked"
t_like "$UPFT_OUT" "^      2  	s\\.Count\\+\\+\$" "Go: -L marks s.Count++ as line 2"
t_like "$UPFT_OUT" '^         // process takes a string .*\("batch-7", \[10 20 30\], 3\)\.$' \
	"Go: -L shows source text as it is (quotes not escaped)"
upft_run -x "$T/go/orders" -L 'example.com/orders/store.(*Ledger).Record'
t_is "$UPFT_RC" 0 "Go: -L with a package import path exits 0"
t_like "$UPFT_OUT" "^<example\\.com/orders/store\\.\\(\\*Ledger\\)\\.Record@$gosrc/store/ledger\\.go:0>\$" \
	"Go: -L finds the method in store/ledger.go"
t_like "$UPFT_OUT" '^      1  	l\.Entries = append\(l\.Entries, Entry\{Name: name, Amount: int64\(qty\)\}\)$' \
	"Go: -L marks the method's body"
upft_run -x "$T/go/orders" -L 'store.(*Ledger).Record'
t_like "$UPFT_OUT" "^<store\\.\\(\\*Ledger\\)\\.Record@$gosrc/store/ledger\\.go:0>\$" \
	"Go: -L by the unambiguous suffix store.(*Ledger).Record (named as typed, as perf does)"
upft_run -x "$T/go/orders" -L 'example.com/orders/store.Lookup:1'
t_is "$UPFT_RC" 0 "Go: -L FUNC:RELLINE with an import path exits 0"

t_done
