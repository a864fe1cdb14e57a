// SPDX-License-Identifier: GPL-2.0-or-later
/* loc-piece.c - struct loc as a container of pieces: built by loc.c and by the machines' ABIs
 * (src/arch/), which sit below the register table loc.c reads */
#include <stdlib.h>

#include "loc.h"
#include "util.h"

void loc_release(struct loc *l)
{
	for (size_t i = 0; i < l->nr; i++) {
		free(l->pieces[i].fetch);
		free(l->pieces[i].base);
		free(l->pieces[i].why);
	}
	free(l->pieces);
	l->pieces = NULL;
	l->nr = 0;
}

void loc_add_piece(struct loc *l, const struct loc_piece *p)
{
	struct loc_piece *n;

	l->pieces = xrealloc(l->pieces, sizeof(*l->pieces) * (l->nr + 1));
	n = &l->pieces[l->nr++];
	*n = *p;
	n->fetch = p->fetch ? xstrdup(p->fetch) : NULL;
	n->base = p->base ? xstrdup(p->base) : NULL;
	n->why = p->why ? xstrdup(p->why) : NULL;
}

void loc_copy(struct loc *dst, const struct loc *src)
{
	dst->pieces = NULL;
	dst->nr = 0;
	for (size_t i = 0; i < src->nr; i++)
		loc_add_piece(dst, &src->pieces[i]);
}
