#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# realprogs.sh - programs nobody here wrote, with Debian's debug packages: CPython's debug
# interpreter (python3.11-dbg: an inlined call starting at PyDict_GetItem's first instruction,
# every object a PyObject *) and Lua (liblua5.4-0-dbg, dwz-compressed separate debuginfo: the
# struct hack char contents[1] read as a C string, inlined copies named by their caller)
. "$(dirname "$0")/lib.sh"
upft_need_root

py=/usr/bin/python3.11d
lua=/usr/bin/lua5.4
[ -x "$py" ] || t_bail "$py not installed (apt-get install python3.11-dbg)"
[ -x "$lua" ] || t_bail "$lua not installed (apt-get install lua5.4)"
bid=$(readelf -n "$lua" | sed -n 's/.*Build ID: //p')
[ -e "/usr/lib/debug/.build-id/${bid:0:2}/${bid:2}.debug" ] ||
	t_bail "lua5.4's debuginfo not installed (apt-get install liblua5.4-0-dbg)"

# PyDict_GetItem's first instruction starts an inlined call; its own parameters are still
# there, as perf probe finds them (op=%di key=%si)
upft_run -x "$py" -D 'PyDict_GetItem op key'
t_is "$UPFT_RC" 0 "PyDict_GetItem op key: -D exits 0"
a0=%di a1=%si	# the first two argument registers (arm64: x0, x1)
[ "$UPFT_ARCH" = arm64 ] && a0=%x0 a1=%x1
t_like "$UPFT_OUT" "^p:probe_python3/PyDict_GetItem $py:0x[0-9a-f]+ op=$a0:x64 key=$a1:x64\$" \
	"op and key in $a0 and $a1, as perf probe reads them"
upft_run -x "$py" -V PyDict_GetItem
t_like "$UPFT_OUT" "PyObject \*[[:space:]]+op" "-V lists the function's own parameter op"
t_unlike "$UPFT_OUT" "[[:space:]]ob\$" "... not the inlined callee's ob"
t_like "$UPFT_OUT" "const char\[15\][[:space:]]+__func__" "__func__ is a const char[15]"
t_unlike "$UPFT_OUT" "const const" "... no type is const twice"

# traced for real: the types behind the PyObject pointers
upft_run --json --max-events 3 'PyDict_GetItem t=op->ob_type->tp_name k=key->ob_type->tp_name' \
	-- "$py" -c 'pass'
t_is "$UPFT_RC" 0 "tracing PyDict_GetItem under python3.11d exits 0"
t_is "$(upft_json_arg "$UPFT_OUT" 1 t)" '"dict"' "op->ob_type->tp_name is \"dict\""
t_is "$(upft_json_arg "$UPFT_OUT" 1 k)" '"str"' "key->ob_type->tp_name is \"str\""

# PyObject_Call from C: the first call of the interpreter's start-up (importlib calling a
# builtin with one argument)
upft_run --json --max-events 1 \
	'PyObject_Call n=callable->ob_type->tp_name a=((PyTupleObject *)args)->ob_base.ob_size' \
	-- "$py" -c 'pass'
t_is "$UPFT_RC" 0 "tracing PyObject_Call under python3.11d exits 0"
t_is "$(upft_json_arg "$UPFT_OUT" 1 n)" '"builtin_function_or_method"' \
	"callable->ob_type->tp_name is \"builtin_function_or_method\""
t_is "$(upft_json_arg "$UPFT_OUT" 1 a)" 1 \
	"a cast to PyTupleObject * (a typedef of a struct, found by name) reads ob_size 1"

# Lua: TString's char contents[1] is the struct hack; :string reads the whole short string
key=a_short_string_key_of_thirty_nine_chars
[ ${#key} -eq 39 ] || t_bail "the key is not 39 characters"
upft_run -x "$lua" -D 'luaH_getshortstr key->contents:string'
t_like "$UPFT_OUT" "contents=\+24\(%[a-z0-9]+\):string" "-D: contents is a :string, not char[1]"
t_unlike "$UPFT_OUT" "char\[1\]" "... nowhere char[1]"
upft_run --stdio --max-events 2000 'luaH_getshortstr key->contents:string n=key->shrlen' \
	-- "$lua" -e "local t = { $key = 1 }; return t.$key"
t_is "$UPFT_RC" 0 "tracing luaH_getshortstr under lua5.4 exits 0"
t_like "$UPFT_OUT" "contents=\"$key\" n=39\$" \
	"the whole 39-character short string, its lu_byte length a number"

# inlined copies are named by the function whose code holds them, as perf -V does
upft_run -x "$lua" -V luaH_getshortstr
t_like "$UPFT_OUT" "@<luaH_get\+0x[0-9a-f]+>" "-V names the copy inlined in luaH_get by luaH_get"
t_like "$UPFT_OUT" "@<luaH_getshortstr\+0x0>" "... and the out-of-line copy by itself"

t_done
