/* SPDX-License-Identifier: GPL-2.0-or-later */
/* elfinfo.h - (being written) */
#ifndef UPF_ELFINFO_H
#define UPF_ELFINFO_H
#endif
