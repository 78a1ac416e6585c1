/*
 * test_sset.c -- core_sset (sset.c): membership, duplicates, growth
 * past several doublings, and the caller's strings left alone.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "t.h"

int
main(void)
{
	struct core_sset s = { 0 };
	static char keys[2000][16];
	size_t i, members = 0;
	int all = 1;

	T_OK(!core_sset_has(&s, "x"), "an empty set has nothing");
	T_EQ(core_sset_add(&s, "a"), 1, "a added");
	T_EQ(core_sset_add(&s, "a"), 0, "a again: already there");
	T_OK(core_sset_has(&s, "a"), "a is a member");
	T_OK(!core_sset_has(&s, "b"), "b is not");
	T_EQ(core_sset_add(&s, ""), 1, "the empty string is a string");
	T_OK(core_sset_has(&s, ""), "and a member");
	T_EQ(s.n, 2, "two members");

	/* An equal string at another address is the same member. */
	{
		char copy[] = "a";
		T_EQ(core_sset_add(&s, copy), 0, "equal, not identical: there");
	}
	for (i = 0; i < 2000; i++) {
		snprintf(keys[i], sizeof(keys[i]), "key%zu", i);
		if (core_sset_add(&s, keys[i]) != 1)
			all = 0;
	}
	T_OK(all, "2,000 distinct keys each added once");
	T_EQ(s.n, 2002, "2,002 members");
	T_OK(s.cap >= 2 * s.n, "at most half full");
	all = 1;
	for (i = 0; i < 2000; i++)
		if (!core_sset_has(&s, keys[i]) || core_sset_add(&s, keys[i]))
			all = 0;
	T_OK(all, "every key found after the growth");
	T_OK(!core_sset_has(&s, "key2000"), "a key never added is not");
	for (i = 0; i < s.cap; i++)
		members += s.v[i] != NULL;
	T_EQ(members, s.n, "the non-NULL slots are the members");
	core_sset_free(&s);
	T_EQ(s.cap, 0, "freed: empty");
	T_OK(!core_sset_has(&s, "a"), "freed: nothing in it");
	T_STREQ(keys[5], "key5", "the caller's strings are untouched");
	return T_DONE();
}
