#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# install-deps.sh - install upfront's dependencies on Debian (apt-get), mount tracefs
#
# usage: sudo scripts/install-deps.sh [--build] [--run] [--test]
#   --build  what building from source needs (compiler, autotools, the -dev packages; their
#            static libraries make ./configure --enable-static-binary work too)
#   --run    what running an installed upfront needs (its shared libraries, the two it
#            dlopen()s, tracefs mounted): what the .deb depends on, for a host without a compiler
#   --test   what make check needs on top of --build and --run (Go, Rust, clang, debug
#            symbols, perf, trace-cmd, tmux, prometheus, debuginfod, ...)
#   none     all three (what .ci/run and the README's commands use)
# Several may be given. Skips apt-get when everything is installed already. rustc is installed
# from Debian only when no rustc is in PATH (a rustup toolchain is used as it is). clang builds
# the libFuzzer harnesses of make check's fuzz pass; libclang-rt-dev has libFuzzer and the
# sanitizer runtimes (only a Recommends of clang, which --no-install-recommends would leave out).
# libdebuginfod1 and libmicrohttpd12 are named: upfront dlopen()s them, so nothing depends on them.
set -euo pipefail

build_pkgs=(build-essential autoconf automake libtool pkg-config
	libtracefs-dev libtraceevent-dev libdw-dev libelf-dev libncurses-dev libcapstone-dev
	libiberty-dev libdebuginfod-dev libmicrohttpd-dev bash-completion libzstd-dev
	libdeflate-dev)
run_pkgs=(libtracefs1 libtraceevent1 libdw1 libelf1 libncursesw6 libcapstone4 libdeflate0
	libdebuginfod1 libmicrohttpd12)
test_pkgs=(golang-go g++ linux-perf trace-cmd tmux python3 libc6-dbg binutils
	clang libclang-rt-dev libc++-dev libc++abi-dev python3.11-dbg lua5.4 liblua5.4-0-dbg
	systemtap-sdt-dev python3.11 debuginfod prometheus curl valgrind util-linux
	gcc-aarch64-linux-gnu)

want_build=0 want_run=0 want_test=0
for a in "$@"; do
	case $a in
	--build) want_build=1 ;;
	--run) want_run=1 ;;
	--test) want_test=1 ;;
	-h|--help) sed -n '5,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "install-deps.sh: unknown option '$a' (use --build, --run, --test, or none for all)" >&2
		exit 2 ;;
	esac
done
[ $# -gt 0 ] || want_build=1 want_run=1 want_test=1
# the tests build upfront and its test targets and run it: --test includes --build and --run
[ $want_test -eq 0 ] || want_build=1 want_run=1

pkgs=()
[ $want_build -eq 0 ] || pkgs+=("${build_pkgs[@]}")
[ $want_run -eq 0 ] || pkgs+=("${run_pkgs[@]}")
if [ $want_test -ne 0 ]; then
	pkgs+=("${test_pkgs[@]}")
	command -v rustc >/dev/null 2>&1 || pkgs+=(rustc)
fi

missing=()
for p in "${pkgs[@]}"; do
	st=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	[ "$st" = "install ok installed" ] || missing+=("$p")
done

if [ "$(id -u)" -ne 0 ]; then
	if [ ${#missing[@]} -gt 0 ]; then
		echo "install-deps.sh: run as root to install: ${missing[*]}" >&2
		exit 1
	fi
else
	if [ ${#missing[@]} -gt 0 ]; then
		echo "install-deps.sh: installing ${missing[*]}"
		export DEBIAN_FRONTEND=noninteractive
		apt-get update -q
		apt-get install -y -q --no-install-recommends "${missing[@]}"
	else
		echo "install-deps.sh: all packages present"
	fi
fi

# tracefs: the tests and upfront itself need it mounted (building alone does not)
[ $want_run -eq 1 ] || [ $want_test -eq 1 ] || exit 0
tracefs=/sys/kernel/tracing
if [ ! -e "$tracefs/uprobe_events" ]; then
	if [ "$(id -u)" -eq 0 ]; then
		mount -t tracefs nodev "$tracefs"
	fi
	if [ ! -e "$tracefs/uprobe_events" ]; then
		echo "install-deps.sh: $tracefs has no uprobe_events" \
			"(mount -t tracefs nodev $tracefs; kernel needs CONFIG_UPROBE_EVENTS)" >&2
		exit 1
	fi
fi
