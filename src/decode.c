// SPDX-License-Identifier: GPL-2.0-or-later
/* decode.c - (being written) */
