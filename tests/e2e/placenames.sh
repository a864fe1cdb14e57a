#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# placenames.sh - function names users type as they are spelled: Go's linker escapes
# (yaml%2ev3, tests/targets/go/dots and docker's vendored gopkg.in/yaml.v3) and their unescaped
# source spelling, generics' shapes; Rust names with array types '[T; N]', extern "C",
# lifetimes and 'Output = T'; the event name of an old symbol version
# (pthread_kill@GLIBC_2.2.5 -> pthread_kill_GLIBC_2_2_5)
. "$(dirname "$0")/lib.sh"
upft_need_root

dots=$UPFT_TARGETS/go/dots
rs=$UPFT_TARGETS/rust/orders-O0
[ -x "$dots" ] || t_bail "$dots not built"
[ -x "$rs" ] || t_bail "$rs not built"

# --- Go: a package path whose last element has a dot ---
sym='upft.test/dots/yaml%2ev3.(*Parser).Parse'
upft_run -x "$dots" -F '*yaml*'
t_like "$UPFT_OUT" "^upft\\.test/dots/yaml%2ev3\\.\\(\\*Parser\\)\\.Parse\$" \
	"-F lists the escaped symbol as Go's linker names it"
upft_run -x "$dots" -F '*/yaml.v3.*'
t_is "$UPFT_OUT" "$sym" "-F GLOB in the source spelling lists the escaped symbol"
upft_run -x "$dots" -D "$sym p"
t_is "$UPFT_RC" 0 "-D $sym exits 0"
# (p's own field is the constant \0 that marks a pointer read; without \IMM upfront keeps it)
[ "$(upft_kernel imm)" = yes ] && want=' p=' || want=' p_Docs='
t_like "$UPFT_OUT" "^p:probe_dots/Parse .*$want" "... one probe named Parse, with p"
def=$(printf '%s\n' "$UPFT_OUT" | grep '^p:')
for p in 'upft.test/dots/yaml.v3.(*Parser).Parse' 'yaml.v3.(*Parser).Parse' \
	'yaml%2ev3.(*Parser).Parse'; do
	upft_run -x "$dots" -D "$p p"
	t_is "$(printf '%s\n' "$UPFT_OUT" | grep '^p:')" "$def" "-D '$p' is the same probe"
done
upft_run -x "$dots" -D "$sym%return \$retval"
t_is "$UPFT_RC" 0 "-D FUNC%return of an escaped name exits 0"
t_like "$UPFT_OUT" '^p:probe_dots/Parse__return ' "... return probes named Parse__return"
upft_run -x "$dots" -D 'upft.test/dots/yaml.v4.(*Parser).Parse'
t_is "$UPFT_RC" 2 "an unescaped name that does not exist exits 2"
t_like "$UPFT_ERR" "^upfront: no function 'upft.test/dots/yaml.v4.\\(\\*Parser\\).Parse' in dots" \
	"... saying so"
upft_run -x "$dots" -D 'upft.test/dots/yaml%2.(*Parser).Parse'
t_is "$UPFT_RC" 2 "a '%' that is neither %XX nor %return exits 2"
t_like "$UPFT_ERR" "^upfront: expected 'return' after '%'" "... with one line"
upft_run --stdio -x "$dots" 'yaml.v3.(*Parser).Parse doc' -- "$dots" 2
t_is "$UPFT_RC" 0 "tracing the unescaped name exits 0"
t_like "$UPFT_OUT" ' Parse doc="key: value1"$' "... its events carry the argument"
t_like "$UPFT_ERR" 'upfront: 2 events, 0 lost' "... one per call"

# docker (Go 1.24, DWARF 5): vendored gopkg.in/yaml.v3 as it is on a real system
docker=/usr/local/bin/docker
if [ -x "$docker" ] && nm "$docker" 2>/dev/null | grep -q 'yaml%2ev3\.(\*decoder)\.unmarshal$'; then
	upft_run -x "$docker" -D 'gopkg.in/yaml%2ev3.(*decoder).unmarshal%return'
	t_is "$UPFT_RC" 0 "docker: -D gopkg.in/yaml%2ev3.(*decoder).unmarshal%return exits 0"
	t_like "$UPFT_OUT" '^p:probe_docker/unmarshal__return ' "... named unmarshal__return"
	upft_run -x "$docker" -D 'gopkg.in/yaml.v3.(*decoder).unmarshal'
	t_like "$UPFT_OUT" '^p:probe_docker/unmarshal ' "docker: the unescaped spelling probes it too"
	f='crypto/hmac.New.UnwrapNew[go.shape.interface { BlockSize() int; Reset(); Size() int; Sum([]uint8) []uint8; Write([]uint8) (int, error) }].func1'
	upft_run -x "$docker" -D "$f"
	t_is "$UPFT_RC" 0 "docker: -D a generic's shape with blanks and ';' inside [] exits 0"
	t_like "$UPFT_OUT" '^p:probe_docker/func1 ' "... named func1"
else
	t_pass "# SKIP docker with a vendored gopkg.in/yaml.v3 is not installed"
fi

# --- Rust: array types and string literals inside <> ---
f='core::array::<impl core::ops::index::Index<I> for [T; N]>::index'
upft_run -x "$rs" -D "$f"
t_is "$UPFT_RC" 0 "-D '$f' exits 0"
t_like "$UPFT_OUT" '^p:probe_orders/index ' "... named index"
# (names as the binary's rustc writes them: rustc 1.63, Debian 12's, for arm64's targets, has
# no RawVec::grow_one and no lifetimes in names; its nearest are a drop_in_place of the same
# RawVec and a dyn Fn with trait bounds)
if "$UPFRONT" -x "$rs" -F 2>/dev/null | grep -q '::grow_one$'; then
	fc='<alloc::raw_vec::RawVec<(*mut u8, unsafe extern "C" fn(*mut u8)), std::alloc::System>>::grow_one'
	fce=grow_one
	fl="<&mut dyn for<'a> core::ops::function::FnMut<(&'a std::backtrace_rs::backtrace::Frame,), Output = bool> as core::ops::function::FnMut<(&std::backtrace_rs::backtrace::Frame,)>>::call_mut"
	fle=call_mut
	fbe=drop
	fb="<alloc::boxed::Box<dyn for<'a, 'b> core::ops::function::Fn<(&'a std::panic::PanicHookInfo<'b>,), Output = ()> + core::marker::Sync + core::marker::Send> as core::ops::drop::Drop>::drop"
else
	fc='core::ptr::drop_in_place<alloc::raw_vec::RawVec<(*mut u8,unsafe extern "C" fn(*mut u8))>>'
	fce=drop_in_place_alloc_raw_vec_RawVec
	fl=
	fbe=downcast_ref
	fb='<dyn core::any::Any+core::marker::Send>::downcast_ref'
fi
upft_run -x "$rs" -D "$fc"
t_is "$UPFT_RC" 0 "-D a name with extern \"C\" exits 0"
t_like "$UPFT_OUT" "^p:probe_orders/$fce" "... named $fce"
if [ -n "$fl" ]; then
	upft_run -x "$rs" -D "$fl"
	t_is "$UPFT_RC" 0 "-D a name with lifetimes and 'Output = bool' inside <> exits 0"
	t_like "$UPFT_OUT" "^p:probe_orders/$fle " "... named $fle"
fi
upft_run -x "$rs" -D "$fb"
t_is "$UPFT_RC" 0 "-D a name with trait bounds ('dyn Trait + Send') inside <> exits 0"
t_like "$UPFT_OUT" "^p:probe_orders/$fbe " "... named $fbe"
upft_run -x "$rs" -D 'orders::shop::total;'
t_is "$UPFT_RC" 2 "a ';' outside [] exits 2"
t_is "$UPFT_ERR" "upfront: unexpected ';' in function name at ';' (column 20 of 'orders::shop::total;')" \
	"... with one line naming it"
upft_run --stdio -x "$rs" 'core::array::<impl core::ops::index::Index<I> for [T; N]>::index' -- "$rs"
t_is "$UPFT_RC" 0 "tracing '<impl Index<I> for [T; N]>::index' exits 0"
t_like "$UPFT_OUT" ' index$' "... an event"

# --- the event of an old symbol version carries the version ---
libc=$(ldd "$dots" 2>/dev/null | awk '$1 == "libc.so.6" { print $3 }')
[ -e "$libc" ] || libc=$(ldd "$rs" | awk '$1 == "libc.so.6" { print $3 }')
upft_run -x "$libc" -D "pthread_kill@$UPFT_GLIBC_BASE" pthread_kill 'pthread_kill@@GLIBC_2.34%return'
t_is "$UPFT_RC" 0 "-D both versions of pthread_kill exits 0"
t_is "$(printf '%s\n' "$UPFT_OUT" | sed -n 's|^[pr]:probe_libc/\([^ ]*\) .*|\1|p')" \
	"$(printf "pthread_kill_$UPFT_GLIBC_BASE_EV\npthread_kill\npthread_kill__return")" \
	"... the old version's event is pthread_kill_$UPFT_GLIBC_BASE_EV, the current one's pthread_kill"
upft_run -x "$libc" -D 'pthread_kill@GLIBC_2.34'
t_like "$UPFT_OUT" '^p:probe_libc/pthread_kill ' "the default version named by '@' is plain pthread_kill"
upft_run -x "$libc" -D "pthread_kill@$UPFT_GLIBC_BASE%return"
t_like "$UPFT_OUT" "^r:probe_libc/pthread_kill_${UPFT_GLIBC_BASE_EV}__return " "... %return of the old one"

t_done
