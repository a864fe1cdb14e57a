// SPDX-License-Identifier: GPL-2.0-or-later
/* fetcharg.c - (being written) */
