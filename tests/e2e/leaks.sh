#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# leaks.sh - error paths leak nothing (valgrind): a C++ type named like a library layout
# (std::vector, std::string) without the members the layout reads makes resolving fail
# half way through the layout's data pointer (val_layout_ptr())
. "$(dirname "$0")/lib.sh"

command -v valgrind >/dev/null || t_bail "valgrind is not installed (scripts/install-deps.sh)"
command -v g++ >/dev/null || t_bail "g++ is not installed"
cat >"$UPFT_TMP/fake.cpp" <<'SRC'
/* named as libstdc++ names them, without the members its layouts read */
template <typename T> struct vector { struct { int x; } _M_impl; };
template <typename C, typename X = int> struct basic_string {
	struct { int q; } _M_dataplus;
	unsigned long _M_string_length;
};
__attribute__((noinline)) int f(vector<int> *p, basic_string<char> *s)
{
	return p->_M_impl.x + (int)s->_M_string_length;
}
int main() { vector<int> v{}; basic_string<char> s{}; return f(&v, &s); }
SRC
g++ -g -O0 -o "$UPFT_TMP/fake" "$UPFT_TMP/fake.cpp" || t_bail "g++ fake.cpp"

# vg PROBE - upfront -D PROBE under valgrind; sets UPFT_RC (upfront's, or 99 for a leak), UPFT_ERR.
# An ASan build (scripts/sanitize-suite) cannot run under valgrind: its LeakSanitizer checks.
vg() {
	if ldd "$UPFRONT" 2>/dev/null | grep -q libasan; then
		ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=1:exitcode=99 \
			"$UPFRONT" -x "$UPFT_TMP/fake" -D "$1" >"$UPFT_TMP/out" 2>"$UPFT_TMP/err"
	else
		valgrind -q --leak-check=full --errors-for-leak-kinds=definite --error-exitcode=99 \
			"$UPFRONT" -x "$UPFT_TMP/fake" -D "$1" >"$UPFT_TMP/out" 2>"$UPFT_TMP/err"
	fi
	UPFT_RC=$?
	UPFT_ERR=$(grep -v '^==' "$UPFT_TMP/err")
}

vg 'f (*p)[0]'
t_is "$UPFT_RC" 2 "indexing a vector<> without _M_start: exit 2, nothing leaked"
t_is "$UPFT_ERR" "upfront: '*p._M_impl' has no field '_M_start' at '[0]' (column 7 of 'f (*p)[0]'); fields: x" \
	"... with the error"
vg 'f *s'
t_is "$UPFT_RC" 2 "a basic_string<> without _M_dataplus._M_p: exit 2, nothing leaked"
t_like "$UPFT_ERR" "has no field '_M_p'" "... with the error"
vg 'f p->_M_impl.x'
t_is "$UPFT_RC" 0 "what the type has still resolves, without leaks"

t_done
