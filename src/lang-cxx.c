// SPDX-License-Identifier: GPL-2.0-or-later
/* lang-cxx.c - (being written) */
