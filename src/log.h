/* SPDX-License-Identifier: GPL-2.0-or-later */
/* log.h - leveled debug output to stderr; set LOG_DOMAIN before including */
#ifndef UPF_LOG_H
#define UPF_LOG_H

#include "util.h"

#ifndef LOG_DOMAIN
#define LOG_DOMAIN "upfront"
#endif

enum log_level { LOG_WARN = 0, LOG_INFO = 1, LOG_DEBUG = 2 };

/* Raised by -v / -vv in main.c. */
extern int log_level;

/**
 * log_park() - while curses owns the terminal, messages go to a buffer instead of stderr;
 * log_unpark() prints what was buffered
 */
void log_park(void);
void log_unpark(void);

/**
 * log_msg() - "upfront: [warning: ]DOMAIN: MESSAGE" on stderr (or parked); use pr_warn(), pr_info()
 * and pr_debug(), which check log_level and pass LOG_DOMAIN
 */
void log_msg(int level, const char *domain, const char *fmt, ...) PRINTF(3, 4);

#define pr_warn(...) log_msg(LOG_WARN, LOG_DOMAIN, __VA_ARGS__)
#define pr_info(...) do { if (log_level >= LOG_INFO) log_msg(LOG_INFO, LOG_DOMAIN, __VA_ARGS__); } while (0)
#define pr_debug(...) do { if (log_level >= LOG_DEBUG) log_msg(LOG_DEBUG, LOG_DOMAIN, __VA_ARGS__); } while (0)

#endif
