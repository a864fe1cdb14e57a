#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# install-deps.sh - install every build and test dependency on Debian (apt-get), mount tracefs
#
# usage: sudo scripts/install-deps.sh
# Skips apt-get when everything is installed already. rustc is installed from Debian only
# when no rustc is in PATH (a rustup toolchain is used as it is). clang builds the libFuzzer
# harnesses of make check's fuzz pass; libclang-rt-dev has libFuzzer and the sanitizer runtimes
# (only a Recommends of clang, which --no-install-recommends would leave out).
# libdebuginfod1 and libmicrohttpd12 are named: upfront dlopen()s them, so nothing depends on them.
set -euo pipefail

pkgs=(build-essential autoconf automake libtool pkg-config
	libtracefs-dev libtraceevent-dev libdw-dev libelf-dev libncurses-dev libcapstone-dev
	libiberty-dev golang-go g++ linux-perf trace-cmd tmux python3 libc6-dbg binutils
	clang libclang-rt-dev libc++-dev libc++abi-dev python3.11-dbg lua5.4 liblua5.4-0-dbg
	systemtap-sdt-dev python3.11 libdebuginfod-dev libdebuginfod1 debuginfod
	libmicrohttpd-dev libmicrohttpd12 prometheus curl bash-completion valgrind util-linux)
command -v rustc >/dev/null 2>&1 || pkgs+=(rustc)

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

# tracefs: the tests and upfront itself need it mounted
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
