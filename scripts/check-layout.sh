#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# check-layout.sh - the source tree's shape, as TAP: file and function sizes, include cycles,
# tracked generated files
#
# usage: scripts/check-layout.sh [SRCDIR]
#
# - no file in src/ over MAX_FILE (1600) lines;
# - no function in src/ over MAX_FUNC (150) lines, counted from its "{" to its "}" (Linux
#   style: the signature starts in column 0, the braces stand alone in column 0);
# - no #include cycle between src/ modules (foo.c, foo.h and foo-internal.h, the private
#   header of foo*.c, are the module foo; an '#include "bar.h"' in one is an edge foo -> bar);
# - no link-level cycle between src/ modules: over the objects of the build (BUILDDIR/src/*.o,
#   BUILDDIR from $UPFT_BUILDDIR, else SRCDIR), an object that uses a symbol another module's
#   object defines (nm) is an edge; foo-bar.c that includes foo-internal.h is the module foo.
#   A callback handed over at run time (render_ops, render_ctl, metrics_http_expose_fn) is
#   no edge: that is how a lower module reaches back. No objects: skipped (build first);
# - no tracked backup or generated file (git ls-files: *~, configure, Makefile.in, *.o, ...);
# - nothing outside src/arch/ names an architecture (the seam: src/arch/arch.h). In the code of
#   every src/*.c and src/*.h (comments removed, string literals kept), none of:
#     a. an architecture's name: x86 (x86_64, x86-64, X86_...), amd64, aarch64, arm64, i386-
#        i686, in any case, inside an identifier or a string too (x86_insn_rets, "x86-64",
#        __x86_64__, abi-x86_64.h, R_X86_64_64, arm64-insn.h);
#     b. an ELF machine constant, EM_* (the table of machines is src/arch/arch.c);
#     c. a register as the kernel's fetchargs name it, in a string literal: "%REG" with REG
#        one of x86-64's (ax bx cx dx si di bp sp ip, their r/e forms, r8-r15 and their
#        d/w/b parts, flags, xmm/ymm/zmm N, st N) or arm64's (xN, wN, vN, lr, pc, pstate):
#        "%sp", "+8(%di)", "+16(%r14)"; a printf "%s" followed by a word is no register
#        (the name must end where the register's does);
#     d. a vector register's name as a word in code: xmm, ymm, zmm (float_xmm, "xmm%d").
#   What this cannot see, and review must: DWARF register numbers written as numbers
#   (reg == 7), an instruction's bytes (0xcc), host-only code behind #ifdef of another spelling.
#   Files under src/arch/ are the architectures' own; their neutral headers (arch.h, insn.h,
#   abi.h, ...) are what the rest includes.
# Offenders that are being fixed are listed below as known: each is reported as
# "not ok ... # TODO" (not counted as a failure by scripts/run-tests) until it is gone, then
# as "ok ... # TODO" asking for its removal from the list. Anything else fails.
# Exit status 1 when a check failed (TODO lines aside).
set -u

srcdir=${1:-$(cd "$(dirname "$0")/.." && pwd)}
MAX_FILE=1600
MAX_FUNC=150

# Known offenders, one a line, each reported as a TODO until its fix lands (issue 8's splits
# were the last: src/debuginfo.c, src/resolve.c, src/render-tui.c, five functions and the
# debuginfo <-> retsite cycle). Add one only with the change that is fixing it.
known_files=""
known_funcs=""
known_cycles=""
known_links=""
known_arch=""
todo_why="being fixed"

n=0
bad=0

tap() {		# tap OK DESC [DIRECTIVE]
	n=$((n + 1))
	if [ "$1" = ok ]; then
		echo "ok $n - ${2}${3:+ # $3}"
	else
		echo "not ok $n - ${2}${3:+ # $3}"
		[ -z "${3:-}" ] && bad=$((bad + 1))
	fi
}

# report WHAT OFFENDERS KNOWN NONE - OFFENDERS: "key<TAB>description" lines; a key that is a line
# of KNOWN is a TODO; a line of KNOWN that is no offender any more asks to be removed
report() {
	local what=$1 offenders=$2 known=$3 none=$4 key desc others=0
	while IFS=$'\t' read -r key desc; do
		[ -n "$key" ] || continue
		if grep -qxF -- "$key" <<<"$known"; then
			tap "not ok" "$desc" "TODO $todo_why"
		else
			tap "not ok" "$desc"
			others=1
		fi
	done <<<"$offenders"
	while IFS= read -r key; do
		[ -n "$key" ] || continue
		if ! cut -f1 <<<"$offenders" | grep -qxF -- "$key"; then
			tap ok "$key is within the limits now" \
				"TODO remove it from known_$what in scripts/check-layout.sh"
		fi
	done <<<"$known"
	[ $others -eq 0 ] && tap ok "$none${known:+ (the known ones aside)}"
	return 0
}

cd "$srcdir" || exit 2
shopt -s nullglob
srcs=(src/*.c src/*.h src/arch/*.c src/arch/*.h)
if [ ${#srcs[@]} -eq 0 ]; then
	tap "not ok" "no sources in $srcdir/src"
	echo "1..$n"
	exit 1
fi

# 1. file sizes
big=$(wc -l "${srcs[@]}" | awk -v max=$MAX_FILE '$2 != "total" && $1 > max {
	printf "%s\t%s has %d lines (limit %d)\n", $2, $2, $1, max }')
report files "$big" "$known_files" "no file in src/ is over $MAX_FILE lines"

# 2. function sizes: from the "{" line to the "}" line
long=$(awk -v max=$MAX_FUNC '
	FNR == 1 { sig = ""; infn = 0 }
	infn && /^}/ {
		if (FNR - open + 1 > max)
			printf "%s\t%s() in %s has %d lines (limit %d)\n", name, name, FILENAME,
			       FNR - open + 1, max
		infn = 0; sig = ""; next
	}
	infn { next }
	/^{/ && sig != "" {
		s = sig; sub(/\(.*/, "", s); k = split(s, w, /[^A-Za-z0-9_]+/)
		name = w[k] != "" ? w[k] : w[k - 1]
		infn = 1; open = FNR; next
	}
	/^[A-Za-z_]/ && /\(/ && !/;[[:space:]]*$/ { sig = $0; start = FNR; next }
	sig != "" && /^[[:space:]]+[^[:space:]]/ && FNR - start < 8 { next }
	{ sig = "" }
' "${srcs[@]}")
report funcs "$long" "$known_funcs" "no function in src/ is over $MAX_FUNC lines"

# cycles_of WHAT - "FROM TO" edges on stdin; each cycle (a strongly connected component of
# the graph) as "key<TAB>WHAT: key", its key the modules sorted, space-separated
cycles_of() {
	awk '
	{ reach[$1, $2] = 1; node[$1] = 1; node[$2] = 1 }
	END {
		for (k in node) for (i in node) if ((i, k) in reach)
			for (j in node) if ((k, j) in reach) reach[i, j] = 1
		for (i in node) {
			if (!((i, i) in reach)) continue
			comp = ""
			for (j in node) if ((i, j) in reach && (j, i) in reach) comp = comp " " j
			print comp
		}
	}' | while read -r c; do
		echo "$c" | tr ' ' '\n' | sort | paste -sd' '
	done | sort -u | while read -r c; do
		printf '%s\t%s: %s\n' "$c" "$1" "$c"
	done
}

# 3. include cycles between modules: the strongly connected components of the include graph
cycles=$(for f in "${srcs[@]}"; do
	m=$(basename "${f%.*}")
	sed -n 's/^#[[:space:]]*include[[:space:]]*"\(arch\/\)\{0,1\}\([^"/]*\)\.h".*/\1\2/p' "$f" |
		while read -r h; do
			[ -e "src/$h.h" ] && h=${h#arch/} &&
				[ "${h%-internal}" != "${m%-internal}" ] &&
				echo "${m%-internal} ${h%-internal}"
		done
done | sort -u | cycles_of "#include cycle between modules")
report cycles "$cycles" "$known_cycles" "no #include cycle between src/ modules"

# 4. link-level cycles: module A's object uses a symbol module B's object defines
objdir=${UPFT_BUILDDIR:-$srcdir}/src
objmod() {	# the module of src/NAME.c
	local b=$1 p=${1%%-*}

	if [ "$p" != "$b" ] && [ -e "src/$p-internal.h" ] && [ -e "src/$b.c" ] &&
	   grep -q "^#[[:space:]]*include[[:space:]]*\"$p-internal.h\"" "src/$b.c"; then
		echo "$p"
	else
		echo "$b"
	fi
}
objs=0
links=$(for c in src/*.c src/arch/*.c; do
	b=$(basename "$c" .c)
	o=$objdir/${c#src/}
	o=${o%.c}.o
	# only objects of sources that exist, and not older than their source
	[ -e "$o" ] && ! [ "$c" -nt "$o" ] || continue
	m=$(objmod "$b")
	nm --defined-only -g "$o" | awk -v m="$m" 'NF >= 3 { print "D", m, $3 }'
	nm -u "$o" | awk -v m="$m" 'NF { print "U", m, $NF }'
done | awk '
	$1 == "D" { def[$3] = $2; next }
	{ use[$2, $3] = 1 }
	END {
		for (k in use) {
			split(k, u, SUBSEP)
			if ((u[2] in def) && def[u[2]] != u[1])
				print u[1], def[u[2]]
		}
	}' | sort -u | cycles_of "link-level cycle between modules (each uses a symbol of the next)")
for c in src/*.c src/arch/*.c; do
	o=$objdir/${c#src/}
	o=${o%.c}.o
	[ -e "$o" ] && ! [ "$c" -nt "$o" ] && objs=$((objs + 1))
done
if [ $objs -eq 0 ]; then
	tap ok "no link-level cycle between src/ modules" "SKIP no up-to-date objects in $objdir"
else
	report links "$links" "$known_links" "no link-level cycle between src/ modules ($objs objects)"
fi

# 5. nothing outside src/arch/ names an architecture (the rule is in this file's header)
archwords='[Xx]86|[Aa][Mm][Dd]64|[Aa][Aa][Rr][Cc][Hh]64|[Aa][Rr][Mm]64|(^|[^A-Za-z0-9])[Ii][3-6]86([^0-9]|$)'
xregs='[re]?[abcd]x|[re]?(si|di|bp|sp|ip)|r([89]|1[0-5])[dwb]?|[re]?flags|[xyz]mm[0-9]+|st[0-9]'
aregs='[xwv]([0-9]|[12][0-9]|3[01])|lr|pc|pstate'
named=$(for f in src/*.c src/*.h; do
	# comments out, line numbers kept; strings stay (a "/*" inside one is taken as is)
	perl -0777 -pe 's{/\*.*?\*/}{ $& =~ tr/\n//dcr }gse; s{//[^\n]*}{}g' "$f" |
		awk -v f="$f" -v words="$archwords" -v regs="^%($xregs|$aregs)([^A-Za-z0-9_]|\$)" '
		{
			line = $0
			if (match(line, words) || match(line, /(^|[^A-Za-z0-9_])EM_[A-Z0-9_]+/) ||
			    match(line, /[xyzXYZ][mM][mM]/)) {
				printf "%s:%d\t%s:%d names an architecture: %s\n", f, NR, f, NR,
				       substr(line, RSTART, RLENGTH)
				next
			}
			# string literals: each "%REG" in one
			rest = line
			while (match(rest, /"([^"\\]|\\.)*"/)) {
				str = substr(rest, RSTART + 1, RLENGTH - 2)
				rest = substr(rest, RSTART + RLENGTH)
				for (i = 1; i <= length(str); i++) {
					t = substr(str, i)
					if (substr(t, 1, 2) == "%%") { i++; continue }
					if (match(t, regs)) {
						printf "%s:%d\t%s:%d names a register: \"%s\"\n", f,
						       NR, f, NR, str
						next
					}
				}
			}
		}'
done)
report arch "$named" "$known_arch" "nothing outside src/arch/ names an architecture"

# 6. tracked backups and generated files
if git -c safe.directory="$srcdir" -C "$srcdir" rev-parse --git-dir >/dev/null 2>&1; then
	gen=$(git -c safe.directory="$srcdir" -C "$srcdir" ls-files |
		grep -E '~$|\.(o|a|so|orig|rej|swp)$|(^|/)(configure|Makefile\.in|Makefile|aclocal\.m4|config\.(status|log|h)|autom4te\.cache/.*|\.deps/.*)$')
	if [ -n "$gen" ]; then
		while IFS= read -r f; do
			tap "not ok" "$f is tracked but is a backup or generated file"
		done <<<"$gen"
	else
		tap ok "no tracked backup or generated file"
	fi
else
	tap ok "no tracked backup or generated file" "SKIP $srcdir is not a git checkout"
fi

echo "1..$n"
[ $bad -eq 0 ]
