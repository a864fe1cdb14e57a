# SPDX-License-Identifier: GPL-2.0-or-later
# bench/lib.sh - sourced by the bench scripts that define uprobe events of their own
# (fault-cost.sh, pa-cost.sh, placement.sh, go-entry.sh).

# bench_init SHORT NAME - T: tracefs (UPFT_TRACEFS, default /sys/kernel/tracing); G=upft_SHORT$$:
# the script's event group, and its private instance's name ($T/instances/$G); tmp: a scratch
# directory /tmp/upfront-NAME.XXXXXX. On exit, INT, TERM and HUP bench_cleanup runs.
bench_init() {
	T=${UPFT_TRACEFS:-/sys/kernel/tracing}
	G=upft_$1$$
	tmp=$(mktemp -d "/tmp/upfront-$2.XXXXXX")
	trap bench_cleanup EXIT
	trap 'exit 130' INT TERM HUP
}

# bench_cleanup - disable the events of the instance $G and remove it, remove every $G event
# (p: and r:), remove $tmp
bench_cleanup() {
	if [ -d "$T/instances/$G" ]; then
		for e in "$T/instances/$G/events/$G"/*/enable; do
			[ -e "$e" ] && echo 0 >"$e"
		done
		rmdir "$T/instances/$G"
	fi
	grep -E "^[pr]:$G/" "$T/uprobe_events" 2>/dev/null | while read -r def _; do
		echo "-:${def#?:}" >>"$T/uprobe_events"
	done
	rm -rf "$tmp"
}
