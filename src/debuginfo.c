// SPDX-License-Identifier: GPL-2.0-or-later
/* debuginfo.c - (being written) */
