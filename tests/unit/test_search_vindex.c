/*
 * test_search_vindex.c -- when a pages worker re-reads the current
 * semantic index row, and what it does with it (modules/pages/vindex.c).
 */
#include "t.h"
#include "core.h"
#include "../../modules/pages/vindex.h"

static void
due(void)
{
	T_EQ(pages_vindex_due(1000, 0, 5, 5), 1, "never checked: due");
	T_EQ(pages_vindex_due(1000, 990, 5, 5), 0, "checked 10 s ago: not due");
	T_EQ(pages_vindex_due(1000, 1000 - PAGES_VINDEX_CHECK_S, 5, 5), 1,
	    "checked a period ago: due");
	T_EQ(pages_vindex_due(1000, 999, 6, 5), 1, "generation moved: due");
	T_EQ(pages_vindex_due(1000, 999, -1, -1), 0, "no Redis: only by time");
	T_EQ(pages_vindex_due(1000, 2000, 5, 5), 1, "clock went back: due");
}

static void
plan(void)
{
	struct pages_vindex_seen none = { 0, NULL, 0 };
	struct pages_vindex_seen open = { 7, "/v/7.wvec", 1 };
	struct pages_vindex_seen failed = { 7, "/v/7.wvec", 0 };

	T_EQ(pages_vindex_plan(0, 0, NULL, &none), PAGES_VINDEX_KEEP,
	    "no row, nothing seen: keep");
	T_EQ(pages_vindex_plan(0, 0, NULL, &open), PAGES_VINDEX_DROP,
	    "row gone: drop the open index");
	T_EQ(pages_vindex_plan(0, 0, NULL, &failed), PAGES_VINDEX_DROP,
	    "row gone after a failure: forget it");
	T_EQ(pages_vindex_plan(1, 7, "/v/7.wvec", &none), PAGES_VINDEX_OPEN,
	    "first row: open");
	T_EQ(pages_vindex_plan(1, 7, "/v/7.wvec", &open), PAGES_VINDEX_KEEP,
	    "same row, open: keep");
	T_EQ(pages_vindex_plan(1, 8, "/v/8.wvec", &open), PAGES_VINDEX_OPEN,
	    "newer version: open");
	T_EQ(pages_vindex_plan(1, 7, "/v/other.wvec", &open), PAGES_VINDEX_OPEN,
	    "same version, another path: open");
	T_EQ(pages_vindex_plan(1, 7, "/v/7.wvec", &failed), PAGES_VINDEX_OPEN,
	    "same row that failed: retry");
}

int
main(void)
{
	due();
	plan();
	T_EQ(pages_vectors() == NULL, 1, "no index before init");
	return T_DONE();
}
