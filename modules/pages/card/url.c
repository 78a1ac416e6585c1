/*
 * url.c -- where a page's card is: the layout's og:image.  Apart from
 * card.c so that the renderers' tests link no librsvg.
 */
#include <stdlib.h>

#include "core.h"
#include "pages.h"
#include "card.h"

char *
pages_card_url(const struct pages_page *p)
{
	const char *aid;
	long long id = pages_int(p->model, "id", 0);

	switch (p->kind) {
	case PAGES_HOME:
		return core_xasprintf("%s/cards/site.png", p->base);
	case PAGES_PAPER:
		/* Ids are [A-Za-z0-9./-]: nothing to encode. */
		aid = pages_str(p->model, "arxiv_id");
		return aid != NULL
		    ? core_xasprintf("%s/cards/papers/%s.png", p->base, aid)
		    : NULL;
	case PAGES_RESEARCHER:
		return id > 0 ? core_xasprintf("%s/cards/researchers/%lld.png",
				    p->base, id)
			      : NULL;
	case PAGES_INSTITUTION:
		return id > 0 ? core_xasprintf("%s/cards/institutions/%lld.png",
				    p->base, id)
			      : NULL;
	default:
		return NULL;
	}
}
