// SPDX-License-Identifier: GPL-2.0-or-later
/* render-text.c - (being written) */
