// SPDX-License-Identifier: GPL-2.0-or-later
/* symbolize.c - (being written) */
