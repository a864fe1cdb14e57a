// SPDX-License-Identifier: GPL-2.0-or-later
/* metrics-http.c - --metrics ADDR:PORT: the listening socket and libmicrohttpd serving /metrics */
#define LOG_DOMAIN "metrics"

#include <dlfcn.h>
#include <errno.h>
#include <netdb.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <microhttpd.h>

#include "log.h"
#include "metrics-http.h"

#define MAX_CONNECTIONS 16
#define CONNECTION_TIMEOUT_S 10

/*
 * Linked, libmicrohttpd maps gnutls and its dependencies into every run (1.98 ms of CPU
 * before main(), measured with a trivial program); only --metrics uses it, so it is loaded
 * then. The pointers take their types from the header's prototypes: a changed signature does
 * not build. The soname is libmicrohttpd's ABI (Debian 11 and 12: package libmicrohttpd12).
 */
#define MHD_SONAME "libmicrohttpd.so.12"

static struct {
	__typeof__(&MHD_start_daemon) start_daemon;
	__typeof__(&MHD_stop_daemon) stop_daemon;
	__typeof__(&MHD_create_response_from_buffer) create_response_from_buffer;
	__typeof__(&MHD_add_response_header) add_response_header;
	__typeof__(&MHD_queue_response) queue_response;
	__typeof__(&MHD_destroy_response) destroy_response;
	__typeof__(&MHD_lookup_connection_value) lookup_connection_value;
} mhd;

#define MHD_SYM(field, sym) (mhd.field = (__typeof__(&sym))dlsym(h, #sym))

/* mhd_load() - load libmicrohttpd (main thread, before its server starts); -1 with @d filled */
static int mhd_load(struct diag *d)
{
	const char *why;
	void *h;

	if (mhd.start_daemon)
		return 0;
	h = dlopen(MHD_SONAME, RTLD_NOW | RTLD_LOCAL);
	if (h && MHD_SYM(stop_daemon, MHD_stop_daemon) &&
	    MHD_SYM(create_response_from_buffer, MHD_create_response_from_buffer) &&
	    MHD_SYM(add_response_header, MHD_add_response_header) &&
	    MHD_SYM(queue_response, MHD_queue_response) &&
	    MHD_SYM(destroy_response, MHD_destroy_response) &&
	    MHD_SYM(lookup_connection_value, MHD_lookup_connection_value) &&
	    MHD_SYM(start_daemon, MHD_start_daemon))
		return 0;
	why = dlerror();
	diag_fail(d, "--metrics: cannot load %s: %s", MHD_SONAME, why ? why : "unknown error");
	mhd.start_daemon = NULL;
	if (h)
		dlclose(h);
	return -1;
}

struct metrics_http {
	struct MHD_Daemon *daemon;
	metrics_http_expose_fn *expose;
	void *ctx;
};

/* ADDR:PORT -> host (NULL: every address) and port; false when it is not that shape */
static bool split_listen(const char *text, char **host, char **port)
{
	const char *colon = strrchr(text, ':');
	const char *h = text, *p;
	size_t hlen;

	if (!colon)
		return false;
	hlen = colon - text;
	if (hlen >= 2 && h[0] == '[' && h[hlen - 1] == ']') {
		h++;		/* [::1]:9100 */
		hlen -= 2;
	} else if (memchr(h, ':', hlen)) {
		return false;	/* an IPv6 address without brackets: where does it end? */
	}
	p = colon + 1;
	if (!*p || strspn(p, "0123456789") != strlen(p) || strlen(p) > 5 || !atoi(p) ||
	    atoi(p) > 65535)
		return false;
	*host = hlen ? xstrndup(h, hlen) : NULL;
	*port = xstrdup(p);
	return true;
}

/* getaddrinfo() for a passive TCP socket on @text; NULL with @d filled */
static struct addrinfo *resolve_listen(const char *text, struct diag *d)
{
	struct addrinfo hints = { 0 }, *ai = NULL;
	char *host = NULL, *port = NULL;
	int err;

	if (!split_listen(text, &host, &port)) {
		diag_error(d, SPAN_NONE, "--metrics wants ADDR:PORT with a port from 1 to 65535, "
			   "not '%s'", text);
		diag_hint(d, "e.g. 127.0.0.1:9100, [::1]:9100, :9100 (every address)");
		return NULL;
	}
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV | AI_ADDRCONFIG;
	err = getaddrinfo(host, port, &hints, &ai);
	if (err) {
		diag_error(d, SPAN_NONE, "--metrics: cannot resolve '%s': %s", host ? host : "",
			   gai_strerror(err));
		ai = NULL;
	}
	free(host);
	free(port);
	return ai;
}

int metrics_check_listen(const char *text, struct diag *d)
{
	struct addrinfo *ai = resolve_listen(text, d);

	if (!ai)
		return -EINVAL;
	freeaddrinfo(ai);
	return 0;
}

/* A listening socket on the first address of @text that binds; -1 with @d filled. */
static int listen_on(const char *text, struct diag *d)
{
	struct addrinfo *ai = resolve_listen(text, d), *a;
	int fd = -1, err = 0, one = 1;

	if (!ai)
		return -1;
	for (a = ai; a && fd < 0; a = a->ai_next) {
		fd = socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
		if (fd < 0) {
			err = err ? err : errno;
			continue;
		}
		/* a port in TIME_WAIT from a previous run binds; one in use still does not */
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		if (bind(fd, a->ai_addr, a->ai_addrlen) < 0 || listen(fd, MAX_CONNECTIONS) < 0) {
			err = err ? err : errno;
			close(fd);
			fd = -1;
		}
	}
	freeaddrinfo(ai);
	if (fd < 0)
		diag_error(d, SPAN_NONE, "--metrics: cannot listen on %s: %s", text, strerror(err));
	return fd;
}

static void mhd_log(void *cls, const char *fmt, va_list ap)
{
	char buf[256];

	vsnprintf(buf, sizeof(buf), fmt, ap);
	pr_debug("libmicrohttpd: %s", buf);
}

static enum MHD_Result reply(struct MHD_Connection *c, unsigned int status, const char *type,
			     char *body, size_t len)
{
	struct MHD_Response *r;
	enum MHD_Result ret;

	r = mhd.create_response_from_buffer(len, body, MHD_RESPMEM_MUST_FREE);
	if (!r) {
		free(body);
		return MHD_NO;
	}
	mhd.add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	if (status == MHD_HTTP_METHOD_NOT_ALLOWED)
		mhd.add_response_header(r, MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
	ret = mhd.queue_response(c, status, r);
	mhd.destroy_response(r);
	return ret;
}

/* libmicrohttpd's request handler, on its thread */
static enum MHD_Result answer(void *cls, struct MHD_Connection *c, const char *url,
			      const char *method, const char *version, const char *upload,
			      size_t *upload_size, void **req)
{
	struct metrics_http *h = cls;
	struct strbuf sb = STRBUF_INIT;
	const char *type;
	size_t len;

	if (strcmp(method, MHD_HTTP_METHOD_GET) && strcmp(method, MHD_HTTP_METHOD_HEAD))
		return reply(c, MHD_HTTP_METHOD_NOT_ALLOWED, "text/plain; charset=utf-8",
			     xstrdup("only GET and HEAD\n"), strlen("only GET and HEAD\n"));
	if (strcmp(url, "/metrics"))
		return reply(c, MHD_HTTP_NOT_FOUND, "text/plain; charset=utf-8",
			     xstrdup("upfront serves /metrics\n"),
			     strlen("upfront serves /metrics\n"));
	type = h->expose(h->ctx, mhd.lookup_connection_value(c, MHD_HEADER_KIND,
							     MHD_HTTP_HEADER_ACCEPT), &sb);
	len = sb.len;
	return reply(c, MHD_HTTP_OK, type, strbuf_detach(&sb), len);
}

struct metrics_http *metrics_http_start(const char *listen, metrics_http_expose_fn *expose,
					void *ctx, struct diag *d)
{
	struct metrics_http *h;
	sigset_t all, old;
	int fd;

	if (mhd_load(d))
		return NULL;
	fd = listen_on(listen, d);
	if (fd < 0)
		return NULL;
	h = xcalloc(1, sizeof(*h));
	h->expose = expose;
	h->ctx = ctx;
	/* the server's thread inherits this mask: the session's signals go to its threads */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	h->daemon = mhd.start_daemon(MHD_USE_POLL_INTERNAL_THREAD | MHD_USE_ERROR_LOG, 0,
				     NULL, NULL, answer, h,
				     MHD_OPTION_EXTERNAL_LOGGER, mhd_log, NULL,
				     MHD_OPTION_LISTEN_SOCKET, fd,
				     MHD_OPTION_CONNECTION_LIMIT, (unsigned int)MAX_CONNECTIONS,
				     MHD_OPTION_CONNECTION_TIMEOUT,
				     (unsigned int)CONNECTION_TIMEOUT_S,
				     MHD_OPTION_END);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (!h->daemon) {
		close(fd);
		free(h);
		diag_fail(d, "--metrics: cannot start the HTTP server on %s", listen);
		return NULL;
	}
	pr_info("serving metrics at http://%s/metrics", listen);
	return h;
}

void metrics_http_stop(struct metrics_http *h)
{
	if (!h)
		return;
	mhd.stop_daemon(h->daemon);	/* closes the listening socket */
	free(h);
}
