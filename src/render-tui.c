// SPDX-License-Identifier: GPL-2.0-or-later
/* render-tui.c - (being written) */
