// SPDX-License-Identifier: GPL-2.0-or-later
/* stream.c - (being written) */
