/* SPDX-License-Identifier: GPL-2.0-or-later */
/* render.h - (being written) */
#ifndef UPF_RENDER_H
#define UPF_RENDER_H
#endif
