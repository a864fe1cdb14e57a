/* SPDX-License-Identifier: GPL-2.0-or-later */
/* callfields.h - which probe points of a batch get the fields that pair calls (durations) */
#ifndef UPF_CALLFIELDS_H
#define UPF_CALLFIELDS_H

#include <stdbool.h>
#include <stddef.h>

struct trace_probe;

/**
 * callfields_add() - give the points of @tps the hidden fields that pair calls
 * @tps: a trace session's probe points, before they are installed
 * @nr: how many
 * @later: the other half of a call may be added later (the curses view): every event with
 *         a FUNC entry or FUNC%return point gets them, not only those where both are in @tps
 *
 * Every probe point of an event with a FUNC entry or FUNC%return point gets the fields
 * (decode_add_call_fields(): the kernel wants the same fields in all points of an event), and
 * the Go ones when a point of it is in Go code. Only where a duration can come of it: text
 * and JSON have every probe here, and a function probed at its entry alone would pay for a
 * fetch-arg (%sp, ~2% of an emulated hit, bench/pa-cost.sh) and 8 bytes an event for nothing.
 * O(n log n): sorted by event and by function, not a scan of @tps per point.
 */
void callfields_add(struct trace_probe *tps, size_t nr, bool later);

#endif
