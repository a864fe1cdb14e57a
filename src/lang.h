/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lang.h - (being written) */
#ifndef UPF_LANG_H
#define UPF_LANG_H
#endif
