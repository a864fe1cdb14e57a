// SPDX-License-Identifier: GPL-2.0-or-later
/* symbolize.c - a small cache of address -> "symbol+0xoff": vtables and itabs repeat a lot */
#define LOG_DOMAIN "symbolize"

#include <stdlib.h>
#include <string.h>

#include "debuginfo.h"
#include "log.h"
#include "symbolize.h"

#define SYM_CACHE_SIZE 4096	/* power of two; a collision just replaces the entry */

struct sym_entry {
	uint64_t vaddr;
	char *text;		/* NULL with known = true: no symbol there */
	bool known;
};

struct symbolizer {
	struct debuginfo *dbg;
	struct sym_entry *cache;
	struct strbuf tmp;
};

struct symbolizer *symbolizer_new(struct debuginfo *dbg)
{
	struct symbolizer *s = xcalloc(1, sizeof(*s));

	s->dbg = dbg;
	s->cache = xcalloc(SYM_CACHE_SIZE, sizeof(*s->cache));
	strbuf_init(&s->tmp);
	return s;
}

const char *symbolizer_lookup(struct symbolizer *s, uint64_t vaddr)
{
	struct sym_entry *e;

	if (!s || !s->dbg)
		return NULL;
	e = &s->cache[(vaddr * 0x9E3779B97F4A7C15ULL) >> 52 & (SYM_CACHE_SIZE - 1)];
	if (e->known && e->vaddr == vaddr)
		return e->text;
	/* replaced: callers copy what they keep beyond the next lookup */
	free(e->text);
	e->text = NULL;
	e->vaddr = vaddr;
	e->known = true;
	strbuf_reset(&s->tmp);
	if (debuginfo_symbolize(s->dbg, vaddr, &s->tmp) == 0 && s->tmp.len)
		e->text = xstrdup(s->tmp.buf);
	return e->text;
}

void symbolizer_free(struct symbolizer *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < SYM_CACHE_SIZE; i++)
		free(s->cache[i].text);
	free(s->cache);
	strbuf_release(&s->tmp);
	free(s);
}
