/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fallback.h - what upfront writes instead where the running kernel lacks a feature of
 * uprobe_events (kernel 4.18, RHEL 8): array types, \IMM constants, several probe points in
 * one event. The decoder shows the same values and names as with the feature.
 */
#ifndef UPF_FALLBACK_H
#define UPF_FALLBACK_H

#include <stddef.h>

#include "diag.h"
#include "fetcharg.h"

/**
 * fallback_fields() - @tp's fields as a kernel without array types or without \IMM (@kf)
 * takes them; a field already done is left as it is (it may be called again)
 *
 * Without arrays, a T[N] field (text chunks, char[N], u64 words, an array of numbers) is
 * written as scalar fields NAME_w0, NAME_w1 ... (u64, then u32/u16/u8 for what is left of
 * its bytes), appended hidden: the kernel lays fields out one after the other, so the pieces
 * hold the array's bytes as one field would, and the array's field (fetch_field.pieces)
 * stands for them in the decoder. Without \IMM, a field \IMM is kept on upfront's side
 * (fetch_field.local: the decoder gives its value) and a read at a constant address,
 * +OFF(\ADDR), is written @ADDR+OFF.
 *
 * Return: 0, or -EINVAL with @d naming the field and the construct this kernel cannot take
 * (an array of strings, a text constant \"TEXT").
 */
int fallback_fields(struct trace_probe *tp, const struct kernel_features *kf, struct diag *d);

/**
 * fallback_halve_file_offsets() - @fetch with each @+OFFSET written @+OFFSET/2, as a kernel
 * that reads @+OFFSET at base + 2 * OFFSET (kcaps.h, row file_offset "half") reads the place
 * @fetch means; fallback_fields() does it there
 * Return: a new string, or NULL when an OFFSET is odd (it cannot be written so).
 */
char *fallback_halve_file_offsets(const char *fetch);

/**
 * fallback_kernel_fields() - how many fields the kernel gets for @tp's fields with @kf: an
 * array one, or without array types as many as fallback_fields() makes of it; a constant
 * kept by upfront none
 * @line: (or NULL) gets the bytes these fields take in the uprobe_events line
 */
size_t fallback_kernel_fields(const struct trace_probe *tp, const struct kernel_features *kf,
			      size_t *line);

/**
 * fallback_events() - give probe points an event of their own where the kernel cannot put
 * them in one: without multi-probe events (@kf) every point after the first of an event;
 * with them, a point whose written fields differ from those of the event's first point (a
 * constant upfront keeps). Such points get the event NAME__2, NAME__3 ... (one per point, or
 * per set of fields; cut to max_event_name) and trace_probe.merged = NAME, under which the
 * decoder shows them. The points of one event are next to each other in @tps.
 */
void fallback_events(struct trace_probe *tps, size_t nr, const struct kernel_features *kf);

/**
 * fallback_merged_name() - NAME of an event named NAME__K (K: digits from 2 on), as
 * fallback_events() names them; -l and -d show and take such an event as NAME when NAME is
 * an event of the same group too
 * @len: gets the length of NAME
 * Return: whether @event has that form.
 */
bool fallback_merged_name(const char *event, size_t *len);

#endif
