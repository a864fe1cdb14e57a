/* SPDX-License-Identifier: GPL-2.0-or-later */
/* stream.h - (being written) */
#ifndef UPF_STREAM_H
#define UPF_STREAM_H
#endif
