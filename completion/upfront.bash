# SPDX-License-Identifier: GPL-2.0-or-later
# upfront.bash - bash completion for upfront(1)
#
# Options; files after -x and -o; process ids after -p; tracefs events after -e; PROBE:ARG after
# --metrics-label (from upfront -D of the probes on the line); commands after --. A probe
# word completes the functions of the binary (upfront -x BINARY -F 'PREFIX*'); inside a
# quoted probe word, after the place, the variables there (upfront -V PLACE) and, after
# "EXPR." or "EXPR->", the fields of EXPR (upfront -V 'PLACE EXPR'). The binary is the one of
# -x, of "-- CMD", or of -p PID. Installed into bash-completion's completionsdir by
# `make install`; `source completion/upfront.bash` to try it from the source tree.

# _upfront_split - the words of COMP_LINE up to the cursor as the shell will see them:
# _upfront_w (dequoted), _upfront_raw (the current word as typed), _upfront_q (its open
# quote character, or empty)
_upfront_split()
{
	local line=${COMP_LINE:0:COMP_POINT} c w= raw= inword= i

	_upfront_w=()
	_upfront_q=
	for ((i = 0; i < ${#line}; i++)); do
		c=${line:i:1}
		if [[ -n $_upfront_q ]]; then
			raw+=$c
			if [[ $c == "$_upfront_q" ]]; then
				_upfront_q=
			elif [[ $_upfront_q == '"' && $c == '\' && $((i + 1)) -lt ${#line} ]]; then
				i=$((i + 1))
				raw+=${line:i:1}
				w+=${line:i:1}
			else
				w+=$c
			fi
			continue
		fi
		case $c in
		"'" | '"')
			_upfront_q=$c
			raw+=$c
			inword=1
			;;
		'\')
			i=$((i + 1))
			raw+=$c${line:i:1}
			w+=${line:i:1}
			inword=1
			;;
		' ' | $'\t')
			if [[ -n $inword ]]; then
				_upfront_w+=("$w")
			fi
			w= raw= inword=
			;;
		*)
			raw+=$c
			w+=$c
			inword=1
			;;
		esac
	done
	_upfront_w+=("$w")
	_upfront_raw=$raw
}

# _upfront_run ARGS... - upfront itself (the command being completed), bounded in time
_upfront_run()
{
	local up=${_upfront_w[0]}

	[[ $up == */* ]] || up=$(type -P "$up" 2>/dev/null)
	[[ -x $up ]] || return 1
	if type -P timeout >/dev/null 2>&1; then
		timeout 10 "$up" "$@" 2>/dev/null
	else
		"$up" "$@" 2>/dev/null
	fi
}

# _upfront_binary - print the binary the probes are for: -x, the command after --, -p's exe
_upfront_binary()
{
	local i n=$((${#_upfront_w[@]} - 1)) w pid= cmd=

	for ((i = 1; i < n; i++)); do
		w=${_upfront_w[i]}
		case $w in
		--) cmd=${_upfront_w[i + 1]}; [[ $((i + 1)) -lt $n ]] || cmd=; break ;;
		-x | --exec) [[ $((i + 1)) -lt $n ]] && { echo "${_upfront_w[i + 1]}"; return; } ;;
		--exec=*) echo "${w#--exec=}"; return ;;
		-x?*) echo "${w#-x}"; return ;;
		-p | --pid) [[ $((i + 1)) -lt $n ]] && pid=${_upfront_w[i + 1]} ;;
		esac
	done
	if [[ -n $cmd ]]; then
		[[ $cmd == */* ]] && echo "$cmd" || type -P "$cmd"
	elif [[ -n $pid ]]; then
		readlink "/proc/$pid/exe" 2>/dev/null
	fi
}

# _upfront_reply CANDIDATES... - COMPREPLY from candidates for the whole current word:
# inside quotes as they are; unquoted shell-escaped, and cut where bash's own word starts
# (COMP_WORDBREAKS splits at ':', '=', '(' ...)
_upfront_reply()
{
	local c bashcur=${COMP_WORDS[COMP_CWORD]} cut=0

	COMPREPLY=()
	if [[ -z $_upfront_q && -n $bashcur && $_upfront_raw == *"$bashcur" ]]; then
		cut=$((${#_upfront_raw} - ${#bashcur}))
	elif [[ -z $_upfront_q && -z $bashcur ]]; then
		cut=${#_upfront_raw}
	fi
	for c in "$@"; do
		if [[ -z $_upfront_q ]]; then
			[[ $c == *[!A-Za-z0-9_./:=+@%,-]* ]] && c=$(printf '%q' "$c")
			COMPREPLY+=("${c:cut}")
		else
			COMPREPLY+=("$c")
		fi
	done
	# In a quoted probe word readline closes the quote on a single match, which would end
	# the probe before its next argument: a second candidate with a blank keeps it open.
	if [[ -n $_upfront_q && ${#COMPREPLY[@]} -eq 1 ]]; then
		COMPREPLY+=("${COMPREPLY[0]} ")
	fi
	[[ -n $_upfront_q ]] && compopt -o nospace 2>/dev/null
	return 0
}

# _upfront_filter PREFIX - the lines of stdin that start with PREFIX, up to a tab (-F marks
# an inlined-only function "NAME<TAB>(inlined)")
_upfront_filter()
{
	local l

	while IFS= read -r l; do
		l=${l%%$'\t'*}
		[[ $l == "$1"* ]] && printf '%s\n' "$l"
	done
}

# _upfront_probe_word BINARY MODE - candidates for a probe (or -F/-V/-L place) word
_upfront_probe_word()
{
	local bin=$1 mode=$2 cur=${_upfront_w[-1]} ev= place head tail base sep part name dot arrow
	local -a names

	if [[ $cur != *[[:space:]]* ]]; then
		# the place: a function, after EVENT= in a probe
		if [[ $mode == probe && $cur == *=* ]]; then
			ev=${cur%%=*}=
			cur=${cur#*=}
		fi
		# -F's GLOB sees names without a version: list NAME*, keep NAME@VERSION
		mapfile -t names < <(_upfront_run -x "$bin" -F "${cur%%@*}*" | _upfront_filter "$cur")
		[[ ${#names[@]} -eq 0 ]] || printf '%s\n' "${names[@]/#/$ev}"
		return
	fi
	[[ $mode == probe || $mode == vars ]] || return
	place=${cur%%[[:space:]]*}
	place=${place#*=}
	head=${cur%[[:space:]]*}' '
	tail=${cur##*[[:space:]]}
	if [[ $tail == *=* ]]; then
		head+=${tail%%=*}=
		tail=${tail#*=}
	fi
	# after EXPR. or EXPR->: the fields of EXPR (the later of the two separators)
	dot=${tail##*.}
	arrow=${tail##*->}
	if [[ $dot != "$tail" || $arrow != "$tail" ]]; then
		if [[ $dot != "$tail" && ($arrow == "$tail" || ${#dot} -le ${#arrow}) ]]; then
			part=$dot sep=.
		else
			part=$arrow sep='->'
		fi
		base=${tail%"$sep$part"}
		mapfile -t names < <(_upfront_run -x "$bin" -V "$place $base" |
			sed -n 's/^\t\t\(.*\)$/\1/p')
		for name in "${names[@]}"; do
			[[ $name == "$part"* ]] && printf '%s\n' "$head$base$sep$name"
		done
		return
	fi
	# the variables at the place (the last column of -V), and the special arguments
	mapfile -t names < <(_upfront_run -x "$bin" -V "$place" | sed -n 's/^\t\t.*\t//p')
	names+=('$params' '$vars')
	[[ $place == *%return ]] && names+=('$retval')
	for name in "${names[@]}"; do
		[[ $name == "$tail"* ]] && printf '%s\n' "$head$name"
	done
}

# _upfront_label BINARY - PROBE:ARG for --metrics-label: the events and argument names of
# upfront -D of the probe words on the line (helper fields NAME_p1, NAME_len, NAME_c ... left out)
_upfront_label()
{
	local bin=$1 i w n=$((${#_upfront_w[@]} - 1)) line ev f name
	local -a probes fields

	for ((i = 1; i < n; i++)); do
		w=${_upfront_w[i]}
		case $w in
		--) break ;;
		-x | -p | -u | -e | -g | --exec | --pid | --user | --event | --group | --filter | \
		--max-events | --duration | --string-size | --ring | --metrics | --metrics-label | \
		--metrics-label-max | --interval | --top | --replay | --value-size | -o | --output) i=$((i + 1)) ;;
		-*) ;;
		*) probes+=("$w") ;;
		esac
	done
	[[ ${#probes[@]} -gt 0 ]] || return
	_upfront_run -x "$bin" -D "${probes[@]}" | while read -r line; do
		[[ $line == [pr]:* ]] || continue
		ev=${line%% *}
		ev=${ev##*/}
		read -ra fields <<<"${line#* * }"
		[[ ${#fields[@]} -gt 0 && ${line#* } == *' '* ]] || fields=()
		for f in "${fields[@]}"; do
			name=${f%%=*}
			# NAME_p1, NAME_n2, NAME_1, NAME_len, NAME_cap, NAME_ptr, NAME_c, NAME_hi of an
			# argument NAME: helpers (upfront(1), Helper fields)
			if [[ $name =~ ^(.+)_(p[0-9]+|n[0-9]+|[0-9]+|len|cap|ptr|c|hi)$ &&
			      " ${fields[*]%%=*} " == *" ${BASH_REMATCH[1]} "* ]]; then
				continue
			fi
			echo "$ev:$name"
		done
	done
}

_upfront()
{
	local cur prev mode=probe i bin
	local opts='-x --exec -F --funcs -V --vars -L --line -D --definition -a --add -l --list
		-d --del -g --group -p --pid -u --user -e --event -v --verbose -h --help --version --stdio
		--json -o --output --max-events --duration --filter --stack --keep --string-size
		--ring --metrics --metrics-label --metrics-label-max --summary --summary-only
		--interval --top --no-inherit --replay --value-size --kernel-features'
	local -a cands

	_upfront_split
	cur=${_upfront_w[-1]}
	prev=
	[[ ${#_upfront_w[@]} -ge 2 ]] && prev=${_upfront_w[-2]}
	COMPREPLY=()

	# after "-- ": the command, then its arguments
	for ((i = 1; i < ${#_upfront_w[@]} - 1; i++)); do
		[[ ${_upfront_w[i]} == -- ]] || continue
		if [[ $i -eq $((${#_upfront_w[@]} - 2)) ]]; then
			if [[ $cur == */* ]]; then
				mapfile -t cands < <(compgen -f -- "$cur")
			else
				mapfile -t cands < <(compgen -c -- "$cur" | sort -u)
			fi
			_upfront_reply "${cands[@]}"
		else
			compopt -o default 2>/dev/null
		fi
		return
	done

	# --stack=MODE: bash splits at '=', the word here is the whole option
	if [[ -z $_upfront_q && $cur == --stack=* ]]; then
		mapfile -t cands < <(compgen -W "--stack=dwarf --stack=dwarf,1024 --stack=dwarf,2048
			--stack=fp" -- "$cur")
		_upfront_reply "${cands[@]}"
		return
	fi

	case $prev in
	-x | --exec | -o | --output | --replay)
		# readline quotes file names itself
		compopt -o filenames 2>/dev/null
		mapfile -t COMPREPLY < <(compgen -f -- "$cur")
		return
		;;
	-p | --pid)
		mapfile -t cands < <(cd /proc && compgen -G '[0-9]*' | _upfront_filter "$cur")
		_upfront_reply "${cands[@]}"
		return
		;;
	-u | --user)
		mapfile -t cands < <(compgen -u -- "$cur")
		_upfront_reply "${cands[@]}"
		return
		;;
	-e | --event)
		# (read while events come and go, the file can list one twice)
		mapfile -t cands < <(_upfront_filter "$cur" </sys/kernel/tracing/available_events \
			2>/dev/null | sort -u)
		_upfront_reply "${cands[@]}"
		return
		;;
	--metrics-label)
		bin=$(_upfront_binary)
		[[ -n $bin ]] && mapfile -t cands < <(_upfront_label "$bin" | _upfront_filter "$cur")
		_upfront_reply "${cands[@]}"
		return
		;;
	-g | --group | --filter | --max-events | --duration | --string-size | --ring | \
	--metrics | --metrics-label-max | --interval | --top | --value-size)
		return
		;;
	esac

	if [[ -z $_upfront_q && $cur == -* ]]; then
		mapfile -t cands < <(compgen -W "$opts" -- "$cur")
		_upfront_reply "${cands[@]}"
		return
	fi

	for ((i = 1; i < ${#_upfront_w[@]} - 1; i++)); do
		case ${_upfront_w[i]} in
		-F | --funcs | -L | --line) mode=place ;;
		-V | --vars) mode=vars ;;
		-l | --list | -d | --del) return ;;
		esac
	done
	bin=$(_upfront_binary)
	[[ -n $bin ]] || return
	[[ $mode == probe || -n $_upfront_q || $cur != *[[:space:]]* ]] || return
	mapfile -t cands < <(_upfront_probe_word "$bin" "$mode")
	_upfront_reply "${cands[@]}"
}

complete -F _upfront upfront
