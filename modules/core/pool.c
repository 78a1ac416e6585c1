/*
 * pool.c -- allocations freed together.  A parsed record owns a dozen
 * strings; kept in its pool, they are freed by one call, and a string
 * set on a path that later fails cannot be forgotten by the record's
 * free function.
 */
#include <stdlib.h>

#include "core.h"

void *
core_pool_keep(struct core_pool *pl, void *p)
{
	if (p == NULL)
		return NULL;
	if (pl->n == pl->cap) {
		pl->cap = pl->cap ? pl->cap * 2 : 16;
		pl->v = core_xrealloc(pl->v, pl->cap * sizeof(*pl->v));
	}
	pl->v[pl->n++] = p;
	return p;
}

void
core_strv_free(char **v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

void
core_pool_free(struct core_pool *pl)
{
	size_t i;

	for (i = 0; i < pl->n; i++)
		free(pl->v[i]);
	free(pl->v);
	pl->v = NULL;
	pl->n = pl->cap = 0;
}
