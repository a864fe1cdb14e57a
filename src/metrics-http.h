/* SPDX-License-Identifier: GPL-2.0-or-later */
/* metrics-http.h - --metrics ADDR:PORT: an HTTP endpoint serving what a callback writes */
#ifndef UPF_METRICS_HTTP_H
#define UPF_METRICS_HTTP_H

#include "diag.h"
#include "util.h"

/*
 * The server knows nothing of the statistics: metrics.c hands it a callback that writes the
 * exposition (the dependency is one way, metrics -> metrics-http).
 */
struct metrics_http;

/**
 * metrics_http_expose_fn - write the exposition for one request, on the HTTP thread
 * @ctx: as given to metrics_http_start()
 * @accept: the request's Accept header, or NULL when none was sent
 * @out: appended to
 * Return: the Content-Type of what was written (a static string).
 */
typedef const char *metrics_http_expose_fn(void *ctx, const char *accept, struct strbuf *out);

/**
 * metrics_check_listen() - whether @text is ADDR:PORT with a numeric port 1-65535 and an
 * address that resolves ("127.0.0.1:9100", "[::1]:9100", "localhost:9100", ":9100")
 * @d: filled when it is not
 * Return: 0, or -EINVAL.
 */
int metrics_check_listen(const char *text, struct diag *d);

/**
 * metrics_http_start() - listen on @listen (ADDR:PORT) and serve what @expose writes at
 * /metrics (GET, HEAD) from libmicrohttpd's own thread, with no signal unblocked there
 * @expose: called per request on that thread, with @ctx
 * libmicrohttpd is dlopen()ed here, the first time (only --metrics uses it).
 * Return: the server for metrics_http_stop(), or NULL with @d filled ("cannot listen on
 * 127.0.0.1:9100: Address already in use", "cannot load libmicrohttpd.so.12: REASON").
 */
struct metrics_http *metrics_http_start(const char *listen, metrics_http_expose_fn *expose,
					void *ctx, struct diag *d);

/**
 * metrics_http_stop() - stop serving (waits for a request being answered); accepts NULL
 */
void metrics_http_stop(struct metrics_http *h);

#endif
