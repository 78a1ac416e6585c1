/*
 * card.c -- GET /cards/...: a page's og:image.  The entity is read with
 * the pages' own store functions, its text made plain (TeX as text), the
 * card drawn (svg.c, raster.c) and kept in Redis under the data
 * generation, so each card is drawn once until the data changes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <hiredis.h>

#include "core.h"
#include "pages.h"
#include "card.h"

/* How long Redis keeps a card (a new generation makes it unused). */
#define CARD_TTL 86400
/* Authors named on a paper's card; the rest are "and N more". */
#define CARD_AUTHORS 8

enum card_kind {
	CARD_SITE,
	CARD_PAPER,
	CARD_RESEARCHER,
	CARD_INSTITUTION,
	CARD_KIND__MAX
};

static const char *const kind_names[CARD_KIND__MAX] = { "site", "paper",
	"researcher", "institution" };

/* The lines a kind's title and subtitle may take, and the title's size. */
static const struct {
	int title_lines, sub_lines, title_px;
} boxes[CARD_KIND__MAX] = {
	[CARD_SITE] = { 2, 2, 56 },
	[CARD_PAPER] = { 3, 1, 54 },
	[CARD_RESEARCHER] = { 2, 2, 66 },
	[CARD_INSTITUTION] = { 2, 1, 62 },
};

/* What a card shows, owned: strings freed by spec_free(). */
struct spec {
	struct card c;
	char *own[12];
	size_t nown;
};

static const char *
keep(struct spec *s, char *p)
{
	if (p != NULL && s->nown < sizeof(s->own) / sizeof(s->own[0]))
		s->own[s->nown++] = p;
	else if (p != NULL) {
		free(p);
		return NULL;
	}
	return p;
}

static void
spec_free(struct spec *s)
{
	size_t i;

	for (i = 0; i < s->nown; i++)
		free(s->own[i]);
}

/* The subtitle from b, if it holds any text; b is freed. */
static void
sub_of(struct spec *s, struct core_buf *b)
{
	if (b->len > 0)
		s->c.sub = keep(s, core_buf_steal(b));
	core_buf_free(b);
}

/* "13,663" (a negative count is 0) */
static char *
grouped(long long v)
{
	char out[48];

	return core_xstrdup(pages_num(out, sizeof(out), v < 0 ? 0 : v));
}

/* "1 paper", "13,663 papers" */
static const char *
count(struct spec *s, long long v, const char *one, const char *many)
{
	char *g = grouped(v), *r;

	r = core_xasprintf("%s %s", g, v == 1 ? one : many);
	free(g);
	return keep(s, r);
}

/* The site's host and the page's path, as the card's footnote. */
static const char *
foot(struct spec *s, const char *base, const char *url)
{
	const char *p = url != NULL ? url : base;

	if (p == NULL)
		return NULL;
	if (strncmp(p, "https://", 8) == 0)
		p += 8;
	else if (strncmp(p, "http://", 7) == 0)
		p += 7;
	return keep(s, core_xstrdup(p));
}

static enum core_err
site_spec(struct core_ctx *ctx, struct spec *s)
{
	json_t *m = NULL;
	enum core_err er;

	if ((er = pages_store_counts(ctx->db, &m)) != CORE_OK)
		return er;
	s->c.eyebrow = "a scholarly archive";
	s->c.title = "Papers, researchers and institutions, woven together";
	s->c.sub = "arXiv papers linked to the people who wrote them and the "
		   "places they work.";
	s->c.chips[0] = count(s, pages_int(m, "papers", 0), "paper", "papers");
	s->c.chips[1] = count(s, pages_int(m, "researchers", 0), "researcher",
	    "researchers");
	s->c.chips[2] = count(s, pages_int(m, "institutions", 0), "institution",
	    "institutions");
	s->c.foot = foot(s, ctx->base_url, NULL);
	json_decref(m);
	return CORE_OK;
}

static enum core_err
paper_spec(struct core_ctx *ctx, const char *id, struct spec *s)
{
	const json_t *authors, *a;
	struct core_buf b = CORE_BUF_INIT;
	json_t *m = NULL;
	enum core_err er;
	long long cites;
	size_t i, n;
	char *t;

	if ((er = pages_store_paper(ctx->db, ctx->base_url, id, &m)) != CORE_OK)
		return er;
	s->c.eyebrow = keep(s, core_xasprintf("paper · arXiv:%s", id));
	s->c.title = keep(s, core_tex_plain(pages_str(m, "title"), 0));
	authors = json_object_get(m, "authors");
	n = json_array_size(authors);
	json_array_foreach(authors, i, a)
	{
		if (i == CARD_AUTHORS)
			break;
		t = core_tex_plain(pages_str(a, "name"), 0);
		if (t == NULL)
			continue;
		if (b.len > 0)
			core_buf_puts(&b, ", ");
		core_buf_puts(&b, t);
		free(t);
	}
	if (n > CARD_AUTHORS)
		core_buf_printf(&b, " and %zu more", n - CARD_AUTHORS);
	sub_of(s, &b);
	n = 0;
	if (pages_str(m, "primary_category") != NULL)
		s->c.chips[n++] =
		    keep(s, core_xstrdup(pages_str(m, "primary_category")));
	if (pages_str(m, "published") != NULL)
		s->c.chips[n++] =
		    keep(s, core_xstrndup(pages_str(m, "published"), 10));
	if ((cites = pages_int(m, "citation_count", 0)) > 0)
		s->c.chips[n++] = count(s, cites, "citation", "citations");
	s->c.foot = foot(s, ctx->base_url, NULL);
	json_decref(m);
	return CORE_OK;
}

static enum core_err
researcher_spec(struct core_ctx *ctx, long long id, struct spec *s)
{
	const json_t *met, *inst, *it;
	struct core_buf b = CORE_BUF_INIT;
	json_t *m = NULL;
	enum core_err er;
	size_t i, n = 0;
	char *path = NULL;

	if ((er = pages_store_researcher(ctx->db, ctx->base_url, id, &m)) !=
	    CORE_OK)
		return er;
	path = pages_researcher_path(id, pages_str(m, "slug"));
	if ((er = pages_store_researcher_blocks(ctx->db, ctx->base_url, path,
		 m)) != CORE_OK)
		goto out;
	s->c.eyebrow = "researcher";
	s->c.title = keep(s, core_tex_plain(pages_str(m, "name"), 0));
	inst = json_object_get(m, "institutions");
	json_array_foreach(inst, i, it)
	{
		if (i == 3 || pages_str(it, "name") == NULL)
			break;
		if (b.len > 0)
			core_buf_puts(&b, " · ");
		core_buf_puts(&b, pages_str(it, "name"));
	}
	/* No institution known: the fields they publish in. */
	json_array_foreach(b.len == 0 ? json_object_get(m, "fields") : NULL, i,
	    it)
	{
		if (i == 5 || pages_str(it, "category") == NULL)
			break;
		if (b.len > 0)
			core_buf_puts(&b, " · ");
		core_buf_puts(&b, pages_str(it, "category"));
	}
	sub_of(s, &b);
	met = json_object_get(m, "metrics");
	s->c.red_chip = -1;
	s->c.chips[n++] = count(s, pages_int(met, "papers_here", 0),
	    "paper here", "papers here");
	if (pages_has_int(met, "h_index")) {
		s->c.red_chip = (int)n;
		s->c.chips[n++] = keep(s,
		    core_xasprintf("h-index %lld",
			pages_int(met, "h_index", 0)));
	}
	if (pages_has_int(met, "citations"))
		s->c.chips[n++] = count(s, pages_int(met, "citations", 0),
		    "citation", "citations");
	s->c.foot = foot(s, ctx->base_url, NULL);
out:
	free(path);
	json_decref(m);
	return er;
}

static enum core_err
institution_spec(struct core_ctx *ctx, long long id, struct spec *s)
{
	const char *country, *kind;
	json_t *m = NULL;
	enum core_err er;
	size_t n = 0;
	long long npapers;

	if ((er = pages_store_institution(ctx->db, ctx->base_url, id, 1, &m,
		 &npapers)) != CORE_OK)
		return er;
	s->c.eyebrow = "institution";
	s->c.title = keep(s,
	    core_xstrdup(
		pages_str(m, "name") != NULL ? pages_str(m, "name") : ""));
	country = pages_str(m, "country");
	kind = pages_str(m, "kind");
	if (country != NULL && kind != NULL)
		s->c.sub = keep(s, core_xasprintf("%s · %s", country, kind));
	else if (country != NULL || kind != NULL)
		s->c.sub =
		    keep(s, core_xstrdup(country != NULL ? country : kind));
	s->c.chips[n++] =
	    count(s, pages_int(json_object_get(m, "researchers"), "total", 0),
		"researcher here", "researchers here");
	if (pages_int(m, "established", 0) > 0)
		s->c.chips[n++] = keep(s,
		    core_xasprintf("est. %lld",
			pages_int(m, "established", 0)));
	s->c.foot = foot(s, ctx->base_url, NULL);
	json_decref(m);
	return CORE_OK;
}

/*
 * /cards/REST: the kind and the entity's key ("2512.20345", "42"), into
 * key (canonical forms only: anything else is not found).
 */
static int
parse(const char *rest, enum card_kind *kind, char *key, size_t keysz,
    long long *id)
{
	struct core_arxiv_id aid;
	size_t n = strlen(rest), used = 0;
	const char *p;

	if (strcmp(rest, "site.png") == 0) {
		*kind = CARD_SITE;
		snprintf(key, keysz, "site");
		return 0;
	}
	if (n < 5 || strcmp(rest + n - 4, ".png") != 0)
		return -1;
	n -= 4;
	if (strncmp(rest, "papers/", 7) == 0) {
		p = rest + 7;
		if (core_arxiv_parse(p, n - 7, &aid, &used) != CORE_OK ||
		    used != n - 7 || aid.version != 0 ||
		    strlen(aid.id) != used || strncmp(aid.id, p, used) != 0)
			return -1;
		*kind = CARD_PAPER;
		snprintf(key, keysz, "%s", aid.id);
		return 0;
	}
	if (strncmp(rest, "researchers/", 12) == 0) {
		*kind = CARD_RESEARCHER;
		p = rest + 12;
		n -= 12;
	} else if (strncmp(rest, "institutions/", 13) == 0) {
		*kind = CARD_INSTITUTION;
		p = rest + 13;
		n -= 13;
	} else
		return -1;
	if (n == 0 || p[0] == '0' || core_id_parse(p, n, id) != 0)
		return -1;
	snprintf(key, keysz, "%lld", *id);
	return 0;
}

/* Reads "WC1 <drawn>\n<png>" from Redis: 0 and png, *drawn set. */
static int
cache_get(struct core_ctx *ctx, const char *rkey, struct core_buf *png,
    long long *drawn)
{
	struct redisReply *rep = NULL;
	const char *nl;
	int r = -1;

	if (ctx->redis == NULL ||
	    core_redis_cmd(ctx->redis, &rep, "GET %s", rkey) != CORE_OK)
		return -1;
	if (rep->type == REDIS_REPLY_STRING && rep->len > 5 &&
	    memcmp(rep->str, "WC1 ", 4) == 0 &&
	    (nl = memchr(rep->str, '\n', (size_t)rep->len)) != NULL &&
	    sscanf(rep->str + 4, "%lld", drawn) == 1) {
		nl++;
		core_buf_put(png, nl, (size_t)(rep->str + rep->len - nl));
		r = 0;
	}
	freeReplyObject(rep);
	return r;
}

static void
cache_put(struct core_ctx *ctx, const char *rkey, const struct core_buf *png,
    long long drawn)
{
	struct core_buf v = CORE_BUF_INIT;
	struct redisReply *rep = NULL;

	if (ctx->redis == NULL)
		return;
	core_buf_printf(&v, "WC1 %lld\n", drawn);
	core_buf_put(&v, png->ptr, png->len);
	if (core_redis_cmd(ctx->redis, &rep, "SET %s %b EX %d", rkey, v.ptr,
		v.len, CARD_TTL) == CORE_OK)
		freeReplyObject(rep);
	core_buf_free(&v);
}

enum core_err
pages_card(struct core_req *req)
{
	struct core_ctx *ctx = core_req_ctx(req);
	struct core_buf svg = CORE_BUF_INIT, png = CORE_BUF_INIT;
	struct spec s;
	enum card_kind kind;
	enum core_err er = CORE_OK;
	long long id = 0, gen = 0, drawn = 0;
	char key[64], rkey[128], lm[32];

	if (parse(core_req_rest(req), &kind, key, sizeof(key), &id) != 0)
		return CORE_ENOTFOUND;
	if (ctx->redis != NULL && core_cache_gen(ctx->redis, &gen) != CORE_OK)
		gen = -1; /* Redis is down: draw, do not store */
	snprintf(rkey, sizeof(rkey), "weft:card:%lld:%s:%s", gen,
	    kind_names[kind], key);
	if (gen < 0 || cache_get(ctx, rkey, &png, &drawn) != 0) {
		memset(&s, 0, sizeof(s));
		s.c.red_chip = -1;
		s.c.title_lines = boxes[kind].title_lines;
		s.c.sub_lines = boxes[kind].sub_lines;
		s.c.title_px = boxes[kind].title_px;
		switch (kind) {
		case CARD_SITE:
			er = site_spec(ctx, &s);
			break;
		case CARD_PAPER:
			er = paper_spec(ctx, key, &s);
			break;
		case CARD_RESEARCHER:
			er = researcher_spec(ctx, id, &s);
			break;
		default:
			er = institution_spec(ctx, id, &s);
			break;
		}
		if (er == CORE_OK) {
			core_buf_reset(&png);
			if ((er = card_svg(&svg, &s.c, card_pango_width,
				 NULL)) != CORE_OK)
				core_log(CORE_LOG_ERROR, "card", "%s %s: %s",
				    kind_names[kind], key, core_err_str(er));
			else
				er = card_png(svg.ptr, svg.len, &png);
		}
		spec_free(&s);
		drawn = (long long)time(NULL);
		if (er == CORE_OK && gen >= 0)
			cache_put(ctx, rkey, &png, drawn);
	}
	if (er == CORE_OK) {
		core_resp_ctype(req, "image/png");
		core_buf_put(core_resp_body(req), png.ptr, png.len);
		core_http_date(lm, drawn);
		core_resp_header(req, "Last-Modified", lm);
		core_resp_etag(req);
	} else if (er == CORE_EINPUT)
		er = CORE_ESYS;
	core_buf_free(&svg);
	core_buf_free(&png);
	return er;
}
