/*
 * test_uf.c -- core_uf (uf.c): sets start apart, joins keep the least
 * root whatever their order, a caller's own choice of root holds, and
 * long chains are shortened by find.
 */
#include <stdio.h>
#include <stdlib.h>

#include "core.h"
#include "t.h"

#define N 1000

int
main(void)
{
	static size_t p[N];
	size_t i;
	int all = 1;

	core_uf_init(p, N);
	for (i = 0; i < N; i++)
		if (core_uf_find(p, i) != i)
			all = 0;
	T_OK(all, "every item starts as its own set");

	T_EQ(core_uf_join(p, 7, 3), 3, "7 and 3: root 3, the lesser");
	T_EQ(core_uf_join(p, 2, 9), 2, "2 and 9: root 2");
	T_EQ(core_uf_find(p, 7), 3, "7 is in 3's set");
	T_EQ(core_uf_join(p, 9, 7), 2, "the two sets: root 2");
	T_EQ(core_uf_find(p, 3), 2, "3 now in 2's set");
	T_EQ(core_uf_find(p, 7), 2, "and 7 with it");
	T_EQ(core_uf_join(p, 3, 9), 2, "joined again: nothing changes");
	T_EQ(core_uf_find(p, 4), 4, "4 was never joined");

	/* The matcher names the root itself: a set merged into a later
	 * one. */
	p[core_uf_find(p, 2)] = 4;
	T_EQ(core_uf_find(p, 9), 4, "a root set by hand holds");

	/* A chain 999 -> 998 -> ... -> 100: find still reaches 100, and
	 * halves the path it walks. */
	core_uf_init(p, N);
	for (i = 101; i < N; i++)
		p[i] = i - 1;
	T_EQ(core_uf_find(p, N - 1), 100, "the end of a long chain");
	T_EQ(p[N - 1], N - 3, "its path halved");
	all = 1;
	for (i = 100; i < N; i++)
		if (core_uf_find(p, i) != 100)
			all = 0;
	T_OK(all, "every link of the chain in one set");
	return T_DONE();
}
