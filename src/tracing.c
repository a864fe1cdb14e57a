// SPDX-License-Identifier: GPL-2.0-or-later
/* tracing.c - (being written) */
