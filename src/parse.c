// SPDX-License-Identifier: GPL-2.0-or-later
/* parse.c - (being written) */
