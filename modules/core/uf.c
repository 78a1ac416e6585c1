/*
 * uf.c -- union-find over a plain array of parents: p[i] is the item i
 * was joined to, p[i] == i for the root of a set.  The caller keeps the
 * array beside its items (the matcher's clusters, the gold set's
 * people), so one piece serves both.
 */
#include "core.h"

void
core_uf_init(size_t *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = i;
}

size_t
core_uf_find(size_t *p, size_t i)
{
	/* Path halving: each step points i at its grandparent. */
	while (p[i] != i)
		i = p[i] = p[p[i]];
	return i;
}

size_t
core_uf_join(size_t *p, size_t a, size_t b)
{
	a = core_uf_find(p, a);
	b = core_uf_find(p, b);
	/* The least index stays the root, whatever the order of joins. */
	if (a < b)
		return p[b] = a;
	return p[a] = b;
}
