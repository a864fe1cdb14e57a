/* SPDX-License-Identifier: GPL-2.0-or-later */
/* loc.h - (being written) */
#ifndef UPF_LOC_H
#define UPF_LOC_H
#endif
