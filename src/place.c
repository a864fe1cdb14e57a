// SPDX-License-Identifier: GPL-2.0-or-later
/* place.c - (being written) */
