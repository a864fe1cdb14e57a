/* SPDX-License-Identifier: GPL-2.0-or-later */
/* demangle.h - (being written) */
#ifndef UPF_DEMANGLE_H
#define UPF_DEMANGLE_H
#endif
