/*
 * fuzz_accept.c -- Accept negotiation: the answer is -1 or an index into
 * the offers, the winner is chosen on its own too, and it beats every
 * other offer in a head-to-head, whatever the bytes of the header.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum core_rep all[CORE_REP__MAX] = {
		CORE_REP_HTML,
		CORE_REP_MD,
		CORE_REP_JSON,
		CORE_REP_BIB,
		CORE_REP_RSS,
		CORE_REP_XML,
		CORE_REP_TEXT,
	};
	enum core_rep rep, pair[2];
	char *hdr;
	int r, one, i;

	hdr = core_xstrndup((const char *)data, size);
	r = core_accept_choose(hdr, all, CORE_REP__MAX);
	if (r < -1 || r >= CORE_REP__MAX)
		abort();
	if (r >= 0) {
		/* The winner alone is acceptable too. */
		one = core_accept_choose(hdr, &all[r], 1);
		if (one != 0)
			abort();
		/* Against any earlier offer the winner still wins (its q
		 * is higher), and no later offer beats it (ties go to the
		 * earlier). */
		for (i = 0; i < CORE_REP__MAX; i++) {
			pair[0] = all[i < r ? i : r];
			pair[1] = all[i < r ? r : i];
			if (i != r &&
			    core_accept_choose(hdr, pair, 2) != (i < r))
				abort();
		}
	}
	/* The same header twice gives the same answer. */
	if (core_accept_choose(hdr, all, CORE_REP__MAX) != r)
		abort();
	if (core_rep_from_format(hdr, &rep) == 0 &&
	    ((int)rep < 0 || (int)rep >= CORE_REP__MAX))
		abort();
	free(hdr);
	return 0;
}
