// SPDX-License-Identifier: GPL-2.0-or-later
/* metrics-http.c - --metrics ADDR:PORT: the listening socket and libmicrohttpd serving /metrics */
#define LOG_DOMAIN "metrics"

#include <dlfcn.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <time.h>
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
 * A whole request, from accept to the end of the answer: a scrape takes milliseconds. The
 * idle timeout above restarts with every byte, so clients that trickle a header line at a
 * time held all MAX_CONNECTIONS slots for good (20 of them blocked every scrape for 30 s).
 */
#define CONNECTION_TOTAL_MS 3000

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
	__typeof__(&MHD_get_connection_info) get_connection_info;
} mhd;

#define MHD_SYM(field, sym) (mhd.field = (__typeof__(&sym))dlsym(h, #sym))

/* mhd_load() - load libmicrohttpd (main thread, before its server starts); -1 with @d filled */
static int mhd_load(struct diag *d)
{
#ifdef UPF_STATIC_BINARY
	/* libmicrohttpd.a needs gnutls, which needs p11-kit: Debian has no libp11-kit.a */
	diag_fail(d, "--metrics is not available in this static build of upfront "
		  "(--enable-static-binary: no static libmicrohttpd); the .deb has it");
	return -1;
#else
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
	    MHD_SYM(get_connection_info, MHD_get_connection_info) &&
	    MHD_SYM(start_daemon, MHD_start_daemon))
		return 0;
	why = dlerror();
	diag_fail(d, "--metrics: cannot load %s: %s", MHD_SONAME, why ? why : "unknown error");
	mhd.start_daemon = NULL;
	if (h)
		dlclose(h);
	return -1;
#endif
}

/* an open connection: its socket and when it was accepted */
struct conn {
	int fd;			/* -1: a free slot */
	uint64_t start_ms;
};

struct metrics_http {
	struct MHD_Daemon *daemon[2];	/* :PORT: 127.0.0.1 and ::1 */
	metrics_http_expose_fn *expose;
	void *ctx;
	/* the reaper: shuts down connections older than CONNECTION_TOTAL_MS */
	pthread_mutex_t lock;
	struct conn conns[2 * MAX_CONNECTIONS];
	pthread_t reaper;
	bool reaper_started;
	_Atomic bool stop;
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
		diag_hint(d, "e.g. 127.0.0.1:9100, [::1]:9100, :9100 (loopback), [::]:9100 "
			  "(every address)");
		return NULL;
	}
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	/* no address: the loopback addresses (not AI_PASSIVE, which is every address) */
	hints.ai_flags = host ? AI_PASSIVE | AI_NUMERICSERV | AI_ADDRCONFIG : AI_NUMERICSERV;
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

/*
 * Listening sockets for @text in @fds (up to 2): an address given, the first of its addresses
 * that binds ("[::]" takes IPv4 too); no address, each loopback address (127.0.0.1, ::1).
 * Return: how many, or -1 with @d filled.
 */
static int listen_on(const char *text, int fds[2], struct diag *d)
{
	struct addrinfo *ai = resolve_listen(text, d), *a;
	int n = 0, err = 0, one = 1, zero = 0;
	bool all = text[0] != ':';	/* an address given: its first that binds */

	if (!ai)
		return -1;
	for (a = ai; a && n < 2 && !(all && n); a = a->ai_next) {
		int fd = socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);

		if (fd < 0) {
			err = err ? err : errno;
			continue;
		}
		/* a port in TIME_WAIT from a previous run binds; one in use still does not */
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		if (a->ai_family == AF_INET6)
			setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero));
		if (bind(fd, a->ai_addr, a->ai_addrlen) < 0 || listen(fd, MAX_CONNECTIONS) < 0) {
			err = err ? err : errno;
			close(fd);
			continue;
		}
		fds[n++] = fd;
	}
	freeaddrinfo(ai);
	if (!n) {
		diag_error(d, SPAN_NONE, "--metrics: cannot listen on %s: %s", text, strerror(err));
		return -1;
	}
	return n;
}

static uint64_t mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* libmicrohttpd's connection notices: the reaper's table of open connections */
static void notify_conn(void *cls, struct MHD_Connection *c, void **socket_ctx,
			enum MHD_ConnectionNotificationCode code)
{
	struct metrics_http *h = cls;
	const union MHD_ConnectionInfo *ci;
	int fd;

	ci = mhd.get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
	if (!ci)
		return;
	fd = ci->connect_fd;
	pthread_mutex_lock(&h->lock);
	for (size_t i = 0; i < ARRAY_SIZE(h->conns); i++) {
		if (code == MHD_CONNECTION_NOTIFY_STARTED && h->conns[i].fd < 0) {
			h->conns[i] = (struct conn){ fd, mono_ms() };
			break;
		}
		/* before libmicrohttpd closes it: the reaper never touches a reused number */
		if (code == MHD_CONNECTION_NOTIFY_CLOSED && h->conns[i].fd == fd) {
			h->conns[i].fd = -1;
			break;
		}
	}
	pthread_mutex_unlock(&h->lock);
}

/*
 * Every 100 ms: a connection open longer than CONNECTION_TOTAL_MS is shut down (not closed:
 * libmicrohttpd sees the end, closes it and tells notify_conn()).
 */
static void *reaper_main(void *arg)
{
	struct metrics_http *h = arg;
	struct timespec tick = { 0, 100 * 1000 * 1000 };

	while (!atomic_load(&h->stop)) {
		uint64_t now = mono_ms();

		pthread_mutex_lock(&h->lock);
		for (size_t i = 0; i < ARRAY_SIZE(h->conns); i++) {
			if (h->conns[i].fd >= 0 && now - h->conns[i].start_ms > CONNECTION_TOTAL_MS) {
				shutdown(h->conns[i].fd, SHUT_RDWR);
				h->conns[i].start_ms = now;	/* once per period at most */
			}
		}
		pthread_mutex_unlock(&h->lock);
		nanosleep(&tick, NULL);
	}
	return NULL;
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
	int fds[2], n;

	if (mhd_load(d))
		return NULL;
	n = listen_on(listen, fds, d);
	if (n < 0)
		return NULL;
	h = xcalloc(1, sizeof(*h));
	h->expose = expose;
	h->ctx = ctx;
	pthread_mutex_init(&h->lock, NULL);
	for (size_t i = 0; i < ARRAY_SIZE(h->conns); i++)
		h->conns[i].fd = -1;
	/* the server's threads inherit this mask: the session's signals go to its threads */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	for (int i = 0; i < n; i++) {
		h->daemon[i] = mhd.start_daemon(MHD_USE_POLL_INTERNAL_THREAD | MHD_USE_ERROR_LOG,
						0, NULL, NULL, answer, h,
						MHD_OPTION_EXTERNAL_LOGGER, mhd_log, NULL,
						MHD_OPTION_LISTEN_SOCKET, fds[i],
						MHD_OPTION_CONNECTION_LIMIT,
						(unsigned int)MAX_CONNECTIONS,
						MHD_OPTION_CONNECTION_TIMEOUT,
						(unsigned int)CONNECTION_TIMEOUT_S,
						MHD_OPTION_NOTIFY_CONNECTION, notify_conn, h,
						MHD_OPTION_END);
		if (!h->daemon[i])
			close(fds[i]);
	}
	h->reaper_started = (h->daemon[0] || h->daemon[1]) &&
			    !pthread_create(&h->reaper, NULL, reaper_main, h);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (!h->daemon[0] || (n > 1 && !h->daemon[1]) || !h->reaper_started) {
		metrics_http_stop(h);
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
	atomic_store(&h->stop, true);
	if (h->reaper_started)
		pthread_join(h->reaper, NULL);
	for (int i = 0; i < 2; i++)
		if (h->daemon[i])
			mhd.stop_daemon(h->daemon[i]);	/* closes the listening socket */
	pthread_mutex_destroy(&h->lock);
	free(h);
}
