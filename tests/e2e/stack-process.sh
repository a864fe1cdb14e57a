#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# stack-process.sh - --stack names every frame of the process, not only the -x binary's: a
# probe in libc (getaddrinfo) called by a short-lived program (PIE and not) is named through
# libc into the program's own resolve() and main(), also when the program is a child of the
# traced command and has exited before its event is decoded (its mappings are kept from
# fork/exec to exit, from the kernel's mmap records)
. "$(dirname "$0")/lib.sh"
upft_need_root

cat >"$UPFT_TMP/gai.c" <<'EOF'
#include <netdb.h>
#include <stdio.h>
#include <string.h>

static __attribute__((noinline)) int resolve(const char *name)
{
	struct addrinfo hints, *res = NULL;
	int r;

	memset(&hints, 0, sizeof(hints));
	hints.ai_family = AF_UNSPEC;
	r = getaddrinfo(name, NULL, &hints, &res);
	if (!r)
		freeaddrinfo(res);
	return r;
}

int main(int argc, char **argv)
{
	printf("gai %d\n", resolve(argc > 1 ? argv[1] : "localhost"));
	return 0;
}
EOF
gai=$UPFT_TMP/gai
gcc -g -O1 -fno-omit-frame-pointer -o "$gai" "$UPFT_TMP/gai.c" || t_bail "gcc"
gcc -g -O1 -fno-omit-frame-pointer -no-pie -fno-pie -o "$gai-nopie" "$UPFT_TMP/gai.c" || t_bail "gcc -no-pie"
libc=$(readlink -f /lib/$UPFT_MULTIARCH/libc.so.6)

# stacks JSON - each event's stack, frames joined with " ", one line per event
stacks() {
	printf '%s\n' "$1" | python3 -c '
import json, sys
for l in sys.stdin:
	if l.startswith("{\"time\""):
		e = json.loads(l)
		print(e["comm"], " ".join(e.get("stack", [])))
'
}

want='getaddrinfo\+0x0 resolve\+0x[0-9a-f]+ main\+0x[0-9a-f]+ __libc_start_call_main\+0x[0-9a-f]+'
for bin in "$gai" "$gai-nopie"; do
	name=$(basename "$bin")
	upft_run --json --stack -x libc.so.6 'getaddrinfo name' -- "$bin" localhost
	t_is "$UPFT_RC" 0 "$name: --stack -x libc.so.6 getaddrinfo exits 0"
	t_like "$(stacks "$UPFT_OUT")" "^$name $want" \
		"$name: getaddrinfo (libc), the program's resolve and main, libc's caller of main"
done

# text: each frame with the file it is in
upft_run --stdio --stack -x libc.so.6 'getaddrinfo name' -- "$gai" localhost
t_like "$UPFT_OUT" "^[[:space:]]+[0-9a-f]+ getaddrinfo\\+0x0 \\($libc\\)\$" "text: getaddrinfo in $libc"
t_like "$UPFT_OUT" "^[[:space:]]+[0-9a-f]+ resolve\\+0x[0-9a-f]+ \\($gai\\)\$" "text: resolve in $gai"
t_like "$UPFT_OUT" "^[[:space:]]+[0-9a-f]+ main\\+0x[0-9a-f]+ \\($gai\\)\$" "text: main in $gai"
t_unlike "$UPFT_OUT" 'unknown' "text: no [unknown] frame"

# children of the traced command: forked by sh, exec'd, exited long before the end
upft_run --json --stack -x libc.so.6 'getaddrinfo name' -- \
	sh -c "\"$gai-nopie\" localhost; \"$gai\" localhost; sleep 0.2"
st=$(stacks "$UPFT_OUT")
t_like "$st" "^gai-nopie $want" "a non-PIE child of sh: every frame named"
t_like "$st" "^gai $want" "a PIE child of sh: every frame named"
t_done
