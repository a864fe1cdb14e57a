#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# contract.sh - the command-line contract's details (issue 12): the default group as perf
# names it, -e fields that hold addresses in hex, a kernel rejection with -a exits 2, the
# man page's -D example is what -D prints, --help names the helper fields, Go results are
# r0, r1, the README's commands work with and without sudo
. "$(dirname "$0")/lib.sh"
upft_need_root

C=$UPFT_TARGETS/c/calls-O2
# the man page's -D example is x86-64's: on another machine that of an x86-64 build of the
# forwarder (tests/targets/build.sh makes one there; translation needs no x86-64 CPU)
DNS=$UPFT_TARGETS/go/dnsfwd
[ "$UPFT_ARCH" = x86-64 ] || DNS=$UPFT_TARGETS/go/dnsfwd-amd64
CHURN=$UPFT_TARGETS/go/churn
for b in "$C" "$DNS" "$CHURN"; do
	[ -x "$b" ] || t_bail "targets not built (tests/targets/build.sh $UPFT_TARGETS)"
done
MAN=$UPFT_SRCDIR/man/upfront.1
ev=upft_grp_$$

# the trap also removes what -a added in the probe_c_O2 group
contract_cleanup() {
	local l
	grep -E "^[pr]:[^/]*/$ev " "$UPFT_TRACEFS/uprobe_events" 2>/dev/null | while read -r l _; do
		echo "-:${l#*:}" >>"$UPFT_TRACEFS/uprobe_events"
	done
	upft_cleanup
}
trap contract_cleanup EXIT

# 1. the group: the binary's name up to its first character that is not a letter, a digit
#    or '_' (perf's convert_exec_to_group())
cp "$C" "$UPFT_TMP/c_O2"
cp "$C" "$UPFT_TMP/my-tool.x1"
upft_run -x "$UPFT_TMP/c_O2" -D walk
t_like "$UPFT_OUT" '^p:probe_c_O2/walk ' "-x c_O2: group probe_c_O2 (not cut at '_')"
upft_run -x "$UPFT_TMP/my-tool.x1" -D walk
t_like "$UPFT_OUT" '^p:probe_my/walk ' "-x my-tool.x1: group probe_my"
upft_run -x libc.so.6 -D getpid
t_like "$UPFT_OUT" '^p:probe_libc/getpid ' "-x libc.so.6: group probe_libc"
upft_run -x "$UPFT_TMP/c_O2" -a "$ev=walk n"
t_is "$UPFT_RC" 0 "-a with -x c_O2 exits 0"
t_like "$(cat "$UPFT_TRACEFS/uprobe_events")" "^p:probe_c_O2/$ev " "-a adds the event in probe_c_O2"
t_like "$UPFT_ERR" "perf record -e probe_c_O2:$ev" "-a names it probe_c_O2:$ev for perf"
upft_run -d "probe_c_O2:$ev"
t_is "$UPFT_RC" 0 "-d probe_c_O2:$ev"

# 2. -e SYS:EVENT: __probe_ip (and other fields that hold addresses) in hex, numbers decimal
upft_run -x "$C" -g "$UPFT_GROUP" -a "eaddr=walk n"
t_is "$UPFT_RC" 0 "-a an event to show with -e"
upft_run --stdio -e "$UPFT_GROUP:eaddr" -- "$C" walk 1
t_like "$UPFT_OUT" '^0\.000000 calls-O2/[0-9]+ eaddr __probe_ip=0x[0-9a-f]+ n=1$' \
	"-e: __probe_ip in hex, n in decimal (text)"
upft_run --json -e "$UPFT_GROUP:eaddr" -- "$C" walk 1
t_like "$UPFT_OUT" '"args":\{"__probe_ip":"0x[0-9a-f]+","n":1\}' "-e: __probe_ip a \"0x...\" string (JSON)"

# 3. a probe the kernel rejects (error_log) is bad input with -a too: exit 2, nothing added
# ($stack:string: text read from a register, which every kernel since error_log refuses, and
# upfront passes through as written)
before=$(grep -c "/$ev " "$UPFT_TRACEFS/uprobe_events")
upft_run -x "$C" -a "$ev=walk x=\$stack:string"
t_is "$UPFT_RC" 2 "-a: a kernel rejection exits 2"
if [ "$(upft_kernel error_log)" = yes ]; then
	t_like "$UPFT_ERR" "the kernel rejected probe probe_calls:$ev: trace_uprobe: error: String accepts only memory argument" \
		"-a: the kernel's reason from error_log"
else
	t_like "$UPFT_ERR" "the kernel rejected probe probe_calls:$ev: Invalid argument, with no reason given \\(this kernel has no error_log\\); it refuses the argument 'x=\\\$stack:string'" \
		"-a: without error_log, the argument the kernel refuses, found by trying each alone"
fi
t_is "$(grep -c "/$ev " "$UPFT_TRACEFS/uprobe_events")" "$before" "-a: nothing added"
upft_run --stdio -x "$C" "walk x=\$stack:string" -- "$C" walk 1
t_is "$UPFT_RC" 2 "trace mode: a kernel rejection exits 2"

# 4. the man page's -D example is what -D prints for it (fields and their fetches; the path,
#    offset and build-id are the reader's)
upft_run -x "$DNS" -D 'main.(*server).handleRequest r->Question[0].Name'
got=$(printf '%s\n' "$UPFT_OUT" | grep '^p:' | cut -d' ' -f3- | tr ' ' '\n')
want=$(sed -n '/^p:probe_dnsfwd\/handleRequest /,/^#/p' "$MAN" | sed '1d;$d' |
	tr -s ' ' '\n' | grep -v '^$')
wantc=$(sed -n '/^# probe_dnsfwd\/handleRequest: /,/^# filter /p' "$MAN" | sed '$d; s/^  / /; s/\\-/-/g' |
	tr -d '\n')
# without array types (the man page's Older kernels) each NAME=+OFF(X):u64[N] is written as
# NAME_w0=+OFF(X):u64 ... NAME_w<N-1>, after the other fields, and the comment names those
if [ "$(upft_kernel array)" != yes ]; then
	want=$(printf '%s\n' "$want" | python3 -c '
import re, sys
plain, words = [], []
for f in sys.stdin.read().split():
	m = re.fullmatch(r"(\w+)=\+(\d+)\((.*)\):u64\[(\d+)\]", f)
	if not m:
		plain.append(f)
		continue
	n, off, inner, k = m.group(1), int(m.group(2)), m.group(3), int(m.group(4))
	words += ["%s_w%d=+%d(%s):u64" % (n, i, off + 8 * i, inner) for i in range(k)]
print("\n".join(plain + words))')
	wantc=$(printf '%s\n' "$wantc" | sed 's/Name:/Name_w0..Name_w11:/')
fi
t_is "$got" "$want" "the man page's -D example: the fields -D prints"
t_is "$(printf '%s\n' "$UPFT_OUT" | grep '^# probe_dnsfwd/handleRequest: ')" "$wantc" \
	"the man page's -D example: the comment on the u64 words -D prints"
t_is "$(printf '%s\n' "$UPFT_OUT" | grep '^# filter ')" "$(grep '^# filter ' "$MAN")" \
	"the man page's -D example: the filter comment -D prints"
t_like "$(sed -n '/^p:probe_dnsfwd\//p' "$MAN")" "^$(printf '%s\n' "$UPFT_OUT" | grep '^p:' |
	cut -d' ' -f1 | sed 's/[.*]/\\&/g') " "the man page's -D example: group and event name"
for f in $(printf '%s\n' "$got" | sed -n 's/^Name_\([a-z]*\)[0-9]*=.*/\1/p' | sort -u); do
	t_ok "$(grep -qE "^\\.IB NAME _$f|^\\.RB \\( NAME _${f}0 ," "$MAN"; echo $?)" \
		"the man page documents the helper field NAME_$f..."
done
upft_run --help
t_like "$UPFT_OUT" 'NAME_pN' "--help names the pointer helper fields"
t_like "$UPFT_OUT" 'NAME_nN' "--help names the length helper fields"
# placement: what --help says is in the man page's Placement section
t_like "$UPFT_OUT" 'UPFRONT_PLACEMENT=plain turns this off\. See upfront\(1\),' \
	"--help names UPFRONT_PLACEMENT=plain and the man page's Placement"
t_ok "$(grep -q '^\.SS Placement$' "$MAN" && grep -q '^\.B UPFRONT_PLACEMENT=plain$' "$MAN" &&
	grep -q 'prints that filter' "$MAN"; echo $?)" \
	"the man page has Placement: UPFRONT_PLACEMENT=plain, the filter -D prints"
# Go results: r0, r1 (the man page says so)
upft_run -x "$CHURN" -D 'main.divide%return $retval'
t_like "$UPFT_OUT" '^p:probe_churn/divide__return \S+ r0=\S+ r1=' "Go results are r0 and r1"
t_like "$(grep -A4 'main\.divide%return' "$MAN" | tr '\n' ' ')" \
	'main\.divide%return \$retval.* r0 .* r1' "the man page names them so"

# 5. the README: root needs no sudo, a user gets it; no command starts with a bare sudo
readme=$UPFT_SRCDIR/README.md
def=$(sed -n 's/^    \(sudo=;.*\)$/\1/p' "$readme")
t_is "$(bash -c "$def; echo \"[\$sudo]\"")" "[]" "README: as root \$sudo is empty"
t_is "$(setpriv --reuid=65534 --regid=65534 --clear-groups bash -c "$def; echo \"[\$sudo]\"")" \
	"[sudo]" "README: as a user \$sudo is sudo"
t_is "$(grep -cE '^    (.*&& *)?sudo ' "$readme")" 0 "README: no command line starts with a bare sudo"
t_done
