// SPDX-License-Identifier: GPL-2.0-or-later
/* session.c - (being written) */
