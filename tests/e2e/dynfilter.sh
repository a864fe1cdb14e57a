#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# dynfilter.sh - --filter on a C++ dynamic type, applied in the kernel: 'NAME == CLASS', '!=',
# '~ GLOB' and 'typeid(EXPR) == CLASS' become comparisons of the vtable pointer the event
# fetches with the class's vtable addresses in the files of the traced process (a program and
# its library, where a started command is held until its libraries are mapped, a running -p
# process, a non-PIE program without a process); what cannot be known is said in one line.
# Also the exact file+address of unknown type words (cases/dynmodules.cases has the rest).
# Values: tests/targets/README.md ("C++ projects", "cpp/dyn", "cpp/zoo").
. "$(dirname "$0")/lib.sh"
upft_need_root

c=$UPFT_TARGETS/cpp
for f in libsink-O0.so sink-O0 libsink-O2.so sink-O2 libmbox-O2.so mbox-O2 zoo-O2 zoo-O0-nopie \
	libdyn-O0.so dyn-O0; do
	[ -x "$c/$f" ] || [ -e "$c/$f" ] || t_bail "$c/$f not built (tests/targets/build.sh)"
done
tid='t=typeid(*(memory_managed *)p)'

# events: the 'x' of each line of --stdio output, space separated
xs() { printf '%s\n' "$1" | sed -n 's/.* put x=\([0-9]*\) .*/\1/p' | tr '\n' ' '; }

for o in O0 O2; do
	# a class the program defines (vtable in the program), probed in the library
	upft_run --stdio -x "$c/libsink-$o.so" "sink::put x $tid" --filter 't == local_elem' \
		-- "$c/sink-$o"
	t_is "$UPFT_RC" 0 "$o: --filter 't == local_elem' on a typeid() in the library exits 0"
	t_is "$(xs "$UPFT_OUT")" "30 " "$o: ... only the local_elem call is recorded (x=30)"
	t_like "$UPFT_OUT" " put x=30 t=local_elem$" "$o: ... and named"
	t_like "$UPFT_ERR" "^sink: total=510$" "$o: ... the command ran to its end (its stdout: upfront's stderr)"

	# != of a class whose vtable the copy relocation moved into the program, and && on a number
	upft_run --stdio -x "$c/libsink-$o.so" "sink::put x $tid" \
		--filter 't != plain_elem && x > 10' -- "$c/sink-$o"
	t_is "$(xs "$UPFT_OUT")" "20 30 40 50 " "$o: 't != plain_elem && x > 10' keeps x=20 30 40 and the empty 50"

	# the typeid() as typed (blanks do not matter), a glob
	upft_run --stdio -x "$c/libsink-$o.so" "sink::put x typeid(*(memory_managed *)p)" \
		--filter 'typeid( *(memory_managed*)p ) ~ "*wrapped_elem" || x == 40' -- "$c/sink-$o"
	t_is "$(xs "$UPFT_OUT")" "20 40 " "$o: 'typeid(EXPR) ~ GLOB || x == 40' keeps x=20 (the anonymous namespace's wrapped_elem) and 40"
done

# a template instance whose vtable is in the program, chosen by a glob
upft_run --stdio -x "$c/libmbox-O2.so" 'caf::scheduled_actor::enqueue t=typeid(*ptr)' \
	--filter 't ~ "caf::mailbox_element_vals<*"' -- "$c/mbox-O2"
t_is "$UPFT_RC" 0 "mbox: a glob on caf::mailbox_element_vals<*> exits 0"
t_is "$(printf '%s\n' "$UPFT_OUT" | grep -c ' enqueue ')" 1 "... one event"
t_like "$UPFT_OUT" " enqueue t=caf::mailbox_element_vals<std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> > >$" \
	"... the mailbox_element_vals<std::string>"
# the man page's spelling: typeid(EXPR) as the probe has it, a bare class name
upft_run --stdio -x "$c/libmbox-O2.so" 'caf::scheduled_actor::enqueue typeid(*ptr) ptr->mid' \
	--filter 'typeid(*ptr) == caf::mailbox_element' -- "$c/mbox-O2"
t_like "$UPFT_OUT" " enqueue ptr=caf::mailbox_element mid=104$" \
	"mbox: 'typeid(*ptr) == caf::mailbox_element' keeps the plain element (mid 104)"
t_is "$(printf '%s\n' "$UPFT_OUT" | grep -c ' enqueue ')" 1 "... alone"

# a secondary vtable: typeid() of a Parrot's Named part (n is the Parrot + 16)
upft_run --stdio 'zoo::call t=typeid(*n) l=n->label' --filter 't == zoo::Parrot' -- "$c/zoo-O2"
t_like "$UPFT_OUT" ' call t=zoo::Parrot l="polly"$' "zoo: 't == zoo::Parrot' of a Named * matches the Parrot's secondary vtable"

# a running process (-p): its files as mapped now
"$c/sink-O2" 0 20 >/dev/null &
pid=$!
upft_wait_exec "$pid" "$c/sink-O2" || t_bail "sink-O2 did not start"
upft_run --stdio --max-events 2 -p "$pid" -x "$c/libsink-O2.so" "sink::put x $tid" \
	--filter 't == local_elem'
t_is "$UPFT_RC" 0 "-p: --filter 't == local_elem' exits 0"
t_is "$(xs "$UPFT_OUT")" "30 30 " "-p: ... two events, both x=30"
kill "$pid"
wait "$pid" 2>/dev/null

# a non-PIE program: its vtables' addresses are known without a process
out=$UPFT_TMP/nopie
"$UPFRONT" --stdio --max-events 1 -x "$c/zoo-O0-nopie" 'zoo::feed id=a->id t=typeid(*a)' \
	--filter 't == zoo::Cat' >"$out" 2>"$out.err" &
upid=$!
if upft_wait_tracing "$upid"; then
	"$c/zoo-O0-nopie" >/dev/null
	upft_until 10 grep -q ' feed ' "$out"
fi
wait "$upid"
t_is "$?" 0 "non-PIE, no process: --filter 't == zoo::Cat' exits 0"
t_like "$(cat "$out")" " feed id=103 t=zoo::Cat$" "... the Cat (id 103) is the event"

# what cannot be known, or is wrong: one line, exit 2, the command never runs
upft_run --stdio -x "$c/libsink-O0.so" "sink::put x $tid" --filter 't == local_elem'
t_is "$UPFT_RC" 2 "a library without a process: exits 2"
t_like "$UPFT_ERR" "^upfront: --filter: where the vtables of 'local_elem' are is not known before a process maps .*libsink-O0.so \(position-independent\): give -p PID or -- CMD$" \
	"... and says where the addresses come from"
t_is "$(printf '%s\n' "$UPFT_ERR" | wc -l)" 1 "... in one line"
upft_run --stdio -x "$c/libsink-O0.so" "sink::put x $tid" --filter 't == nosuch' -- "$c/sink-O0"
t_is "$UPFT_RC" 2 "a class no file has a vtable for: exits 2"
t_is "$UPFT_ERR" "upfront: --filter: no class named 'nosuch' has a vtable in the files of the traced processes (classes are spelled as typeid() shows them; '~' takes a glob)" \
	"... in one line naming it"
t_unlike "$UPFT_OUT$UPFT_ERR" "sink: total" "... and the command never ran"
upft_run --stdio 'zoo::feed t=typeid(*a)' --filter 't == zoo::Named' -- "$c/zoo-O0"
t_is "$UPFT_RC" 2 "a class that is not the static type's nor derived from it: exits 2"
t_like "$UPFT_ERR" "^upfront: --filter: zoo::Named is not zoo::Animal or a class derived from it" "... and says so"
upft_run --stdio -x "$c/libsink-O0.so" "sink::put x $tid" --filter 'typeid(*p) == elem' -- "$c/sink-O0"
t_is "$UPFT_RC" 2 "a typeid() that is none of the arguments: exits 2"
t_is "$UPFT_ERR" "upfront: --filter: 'typeid(*p)' is none of the probe's arguments; a filter compares the typeid() arguments the probe fetches" \
	"... in one line"

# unknown type words: the file and the address in it (nm), never a bare number
upft_run --stdio -x "$c/libdyn-O0.so" 'draw seq t=typeid(*s)' -- "$c/dyn-O0"
lj=$(nm "$c/libdyn-O0.so" | awk '$3 == "lib_junk" { print $1 }')
mj=$(nm "$c/dyn-O0" | awk '$3 == "main_junk" { print $1 }')
t_like "$UPFT_OUT" " draw seq=2 t=<unknown vtable libdyn-O0.so\\+$(printf '0x%x' $((0x$lj + 8)))>$" \
	"a word into the library's data: <unknown vtable libdyn-O0.so+(lib_junk + 8)>"
t_like "$UPFT_OUT" " draw seq=3 t=<unknown vtable dyn-O0\\+$(printf '0x%x' $((0x$mj + 16)))>$" \
	"a word into the program's data: <unknown vtable dyn-O0+(main_junk + 16)>"
t_like "$UPFT_OUT" " draw seq=4 t=<unknown vtable 0x[0-9a-f]+>$" "a word into the heap: its value, marked unknown"
t_done
