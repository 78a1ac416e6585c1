/*
 * sset.c -- a set of strings: open addressing over FNV-1a, linear
 * probing, grown to twice its size when it would be half full.  The set
 * holds pointers; the caller owns the strings (a citation list frees
 * the keys it made, the matcher borrows its items' names).
 */
#include <stdlib.h>
#include <string.h>

#include "core.h"

/* The slot of k in v (cap a power of two): where it is, or the empty
 * slot where it would go. */
static size_t
slot(const char **v, size_t cap, const char *k)
{
	size_t i;

	for (i = core_fnv1a(k) & (cap - 1); v[i] != NULL;
	     i = (i + 1) & (cap - 1))
		if (strcmp(v[i], k) == 0)
			break;
	return i;
}

int
core_sset_has(const struct core_sset *s, const char *k)
{
	return s->cap != 0 && s->v[slot(s->v, s->cap, k)] != NULL;
}

int
core_sset_add(struct core_sset *s, const char *k)
{
	size_t i;

	if (2 * (s->n + 1) > s->cap) {
		const char **old = s->v;
		size_t ocap = s->cap;

		s->cap = ocap != 0 ? 2 * ocap : 16;
		s->v = core_xcalloc(s->cap, sizeof(*s->v));
		for (i = 0; i < ocap; i++)
			if (old[i] != NULL)
				s->v[slot(s->v, s->cap, old[i])] = old[i];
		free(old);
	}
	i = slot(s->v, s->cap, k);
	if (s->v[i] != NULL)
		return 0;
	s->v[i] = k;
	s->n++;
	return 1;
}

void
core_sset_free(struct core_sset *s)
{
	free(s->v);
	memset(s, 0, sizeof(*s));
}
