#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# library.sh - a shared library named by soname, its DWARF from separate debuginfo (Debian's
# libc6-dbg under /usr/lib/debug/.build-id), probed for any process that maps it
. "$(dirname "$0")/lib.sh"
upft_need_root

libc=$(readlink -f /lib/$UPFT_MULTIARCH/libc.so.6)
[ -e "$libc" ] || t_bail "no libc.so.6"
command -v getent >/dev/null || t_bail "getent (libc-bin) not installed"
bid=$(readelf -n "$libc" | sed -n 's/.*Build ID: //p')
[ -e "/usr/lib/debug/.build-id/${bid:0:2}/${bid:2}.debug" ] ||
	t_bail "libc's debuginfo not installed (apt-get install libc6-dbg)"

upft_run -x libc.so.6 -D 'getaddrinfo name service'
t_is "$UPFT_RC" 0 "-x libc.so.6 -D getaddrinfo exits 0"
t_like "$UPFT_OUT" "^# build-id $bid; binary $libc\$" "the soname is resolved to $libc, build-id named"
r1=%di r2=%si
[ "$UPFT_ARCH" = arm64 ] && r1=%x0 r2=%x1
t_like "$UPFT_OUT" "^p:probe_libc/getaddrinfo $libc:0x[0-9a-f]+ name=\\+0\\($r1\\):string name_p1=$r1:x64 service=\\+0\\($r2\\):string service_p1=$r2:x64\$" \
	"parameters from the separate debuginfo, char * as :string and its pointer (NULL is no fault; group probe_libc as perf)"

upft_run -x libc.so.6 -V getaddrinfo
t_like "$UPFT_OUT" "char \*[[:space:]]+name" "-V lists getaddrinfo's parameters with their types"

# the probe is on the library: it fires in getent, which maps it
upft_run --json --max-events 1 -x libc.so.6 'getaddrinfo name service' -- getent ahosts localhost
t_is "$UPFT_RC" 0 "tracing getaddrinfo in libc.so.6 under getent exits 0"
t_is "$(upft_json_arg "$UPFT_OUT" 1 name)" '"localhost"' "getent's getaddrinfo name is \"localhost\""
t_is "$(upft_json_arg "$UPFT_OUT" 1 service)" 'null' "its NULL service is null, not text"
t_unlike "$UPFT_OUT" '"faults"' "... and no fault"
upft_run --stdio --max-events 1 -x libc.so.6 'getaddrinfo name service' -- getent ahosts localhost
t_like "$UPFT_OUT" ' getaddrinfo name="localhost" service=NULL$' "in text, NULL as C spells it"

upft_run -x libc.so.6 -D 'getaddrinfo nosuch'
t_is "$UPFT_RC" 2 "an unknown variable in libc exits 2"
t_like "$UPFT_ERR" "nosuch" "... naming the variable"

# libc's .symtab (from libc6-dbg) names versioned symbols "fopen@@GLIBC_2.2.5" (the default
# version, what a program links to) and "pthread_kill@GLIBC_2.2.5" (an old version kept for old
# binaries). Names are shown and matched without the version; the default version is the one
# meant.
dbg=/usr/lib/debug/.build-id/${bid:0:2}/${bid:2}.debug
symaddr() {	# symaddr RAW-NAME - the address readelf gives, as 0x... without leading zeros
	printf '0x%x' "0x$(readelf -sW "$dbg" 2>/dev/null | awk -v n="$1" '$8 == n { print $2; exit }')"
}
symsize() {	# symsize RAW-NAME - its size in bytes
	readelf -sW "$dbg" 2>/dev/null | awk -v n="$1" '$8 == n { print $3; exit }'
}
# in_sym OUT RAW-NAME - the -D line in OUT probes inside RAW-NAME: an entry probe may sit on
# the first instruction the kernel emulates rather than on the first one (issue 10)
in_sym() {
	local off a
	off=$(printf '%s\n' "$1" | sed -n "s|^p:probe_libc/[^ ]* $libc:\(0x[0-9a-f]*\)\$|\1|p")
	a=$(symaddr "$2")
	[ -n "$off" ] && [ $((off)) -ge $((a)) ] && [ $((off)) -lt $((a + $(symsize "$2"))) ]
}
upft_run -x libc.so.6 -F 'fopen*'
t_like "$UPFT_OUT" '^fopen$' "-F lists fopen without its version suffix"
t_unlike "$UPFT_OUT" '@' "-F shows no @VERSION suffixes"
upft_run -x libc.so.6 -F 'pthread_kill'
t_is "$UPFT_OUT" "$(printf "pthread_kill\npthread_kill@$UPFT_GLIBC_BASE")" \
	"-F lists pthread_kill@@GLIBC_2.34 as pthread_kill, the old version by the name that probes it"
upft_run -x libc.so.6 -F
t_is "$(printf '%s\n' "$UPFT_OUT" | grep -c '@@')" 0 "-F of every function shows no default version's suffix"
t_is "$(printf '%s\n' "$UPFT_OUT" | grep '@' | grep -cv '^[A-Za-z0-9_.]*@GLIBC_[A-Z0-9.]*$')" 0 \
	"... and old versions only as NAME@VERSION"

upft_run -x libc.so.6 -D fopen
t_is "$UPFT_RC" 0 "-D fopen (fopen@@$UPFT_GLIBC_BASE in the symbol table) exits 0"
t_like "$UPFT_OUT" "^p:probe_libc/fopen $libc:$(symaddr "fopen@@$UPFT_GLIBC_BASE")\$" \
	"... at fopen@@$UPFT_GLIBC_BASE, event named fopen"
upft_run -x libc.so.6 -D pthread_kill
t_is "$UPFT_RC" 0 "-D pthread_kill (two versions at two addresses) is not ambiguous"
t_ok "$(in_sym "$UPFT_OUT" 'pthread_kill@@GLIBC_2.34'; echo $?)" \
	"... it is the default version, pthread_kill@@GLIBC_2.34"

upft_run --json --max-events 1 -x libc.so.6 'fopen filename' -- getent hosts localhost
t_like "$(upft_json_arg "$UPFT_OUT" 1 filename)" '^"/(etc|usr)/' "fopen by its plain name traces getent's fopen of a file"

# IFUNC symbols (strlen, memcpy) are resolvers: they run once, when the library is loaded,
# and return the implementation every call then goes to. Probing one catches nothing. Each
# machine's libc has its own implementations and resolver symbols (readelf -s of its debug file)
case $UPFT_ARCH in
arm64)	impls="__strlen_asimd __strlen_generic" impl=__strlen_generic res=__strlen_ifunc
	mimpl=__memcpy_generic ;;
*)	impls="__strlen_avx2 __strlen_sse2 __strlen_evex" impl=__strlen_sse2 res=strlen_ifunc
	mimpl=__memcpy_avx_unaligned_erms ;;
esac
upft_run -x libc.so.6 -D strlen
t_is "$UPFT_RC" 2 "-D strlen (an IFUNC) exits 2"
t_is "$(printf '%s\n' "$UPFT_ERR" | wc -l)" 1 "... with one line"
t_like "$UPFT_ERR" "^upfront: strlen in libc\\.so\\.6 is an IFUNC resolver" "... saying it is an IFUNC resolver"
for i in $impls; do
	t_like "$UPFT_ERR" "[ :,]$i[,;) ]" "... listing the implementation $i"
done
t_like "$UPFT_ERR" "$res" "... and naming the resolver's own symbol, $res"
upft_run -x libc.so.6 -D memcpy
t_is "$UPFT_RC" 2 "-D memcpy (memcpy@@GLIBC_2.14, an IFUNC) exits 2"
t_like "$UPFT_ERR" "IFUNC resolver.*$mimpl[,;) ]" \
	"... listing what its resolver returns, by the names that start with __memcpy_"
t_unlike "$UPFT_ERR" "__memcpy_chk" "... and not __memcpy_chk's implementations"
upft_run -x libc.so.6 -D "$impl"
t_is "$UPFT_RC" 0 "an implementation ($impl) is probed as any function"
upft_run -x libc.so.6 -D "$res"
t_is "$UPFT_RC" 0 "the resolver named by its own symbol ($res) is probed"
t_ok "$(in_sym "$UPFT_OUT" strlen; echo $?)" "... in strlen (the resolver's code)"
upft_run -x libc.so.6 -D 'strle[n]'
t_is "$UPFT_RC" 2 "a glob that matches only an IFUNC exits 2 too"
upft_run -x libc.so.6 -D '__strlen_*'
t_is "$UPFT_RC" 0 "the glob of the implementations exits 0"
t_is "$(printf '%s\n' "$UPFT_OUT" | grep -c '^p:')" "$(readelf -sW "$dbg" 2>/dev/null |
	awk '$4 == "FUNC" && $8 ~ /^__strlen_/ { print $2 }' | sort -u | wc -l)" \
	"... one definition per implementation"
upft_run --json --max-events 1 -x libc.so.6 'strlen' -- getent hosts localhost
t_is "$UPFT_RC" 2 "tracing strlen refuses too"

t_done
