// SPDX-License-Identifier: GPL-2.0-or-later
/* render-json.c - (being written) */
