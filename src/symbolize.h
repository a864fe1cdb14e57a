/* SPDX-License-Identifier: GPL-2.0-or-later */
/* symbolize.h - (being written) */
#ifndef UPF_SYMBOLIZE_H
#define UPF_SYMBOLIZE_H
#endif
