# SPDX-License-Identifier: GPL-2.0-or-later
# env.sh - what the arm64 scripts share (sourced): where the arm64 world lives, the cross
# tools, and the host packages they need
UPFT_ARM64_DIR=${UPFT_ARM64_DIR:-/var/tmp/upfront-arm64}
UPFT_ARM64_KERNEL_SUITE=${UPFT_ARM64_KERNEL_SUITE:-trixie}
UPFT_ARM64_TRIPLET=aarch64-linux-gnu

# arm64_need_pkgs PKG... - install the host packages that are missing (as root)
arm64_need_pkgs() {
	local p need=()
	for p in "$@"; do
		[ "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)" = "install ok installed" ] ||
			need+=("$p")
	done
	[ ${#need[@]} -eq 0 ] && return 0
	echo "arm64: installing ${need[*]}"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${need[@]}"
}

# arm64_binfmt - arm64 programs run through qemu-user (mmdebstrap's hooks, rustc in the root)
arm64_binfmt() {
	[ -e /proc/sys/fs/binfmt_misc/register ] ||
		mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
	[ -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ] || update-binfmts --enable qemu-aarch64
}
