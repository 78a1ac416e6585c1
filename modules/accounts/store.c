/*
 * store.c -- the only file of the accounts module that talks to
 * PostgreSQL.  Every statement is a named one from
 * sql/queries/accounts.sql; values travel only as parameters.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "accounts.h"
#include "accounts_sql.h"

#define ID(buf, v) snprintf((buf), sizeof(buf), "%lld", (long long)(v))

static long long
getll(const PGresult *res, int row, int col)
{
	return strtoll(PQgetvalue(res, row, col), NULL, 10);
}

static int
getbool(const PGresult *res, int row, int col)
{
	return PQgetvalue(res, row, col)[0] == 't';
}

/* A nullable text column as a JSON value (new reference). */
static json_t *
getstr(const PGresult *res, int row, int col)
{
	if (PQgetisnull(res, row, col))
		return json_null();
	return core_json_str(PQgetvalue(res, row, col));
}

static json_t *
abs_url(const char *base, const char *path)
{
	json_t *j;
	char *u;

	u = core_xasprintf("%s%s", base, path);
	j = core_json_str(u);
	free(u);
	return j;
}

/* "/researchers/{id}-{slug}" ("-slug" left out when empty); caller frees. */
static char *
researcher_path(long long id, const char *slug)
{
	if (slug == NULL || *slug == '\0')
		return core_xasprintf("/researchers/%lld", id);
	return core_xasprintf("/researchers/%lld-%s", id, slug);
}

enum core_err
acc_store_user_create(struct core_db *db, const char *email, const char *key,
    const char *hash, long long *uid)
{
	const char *p[3] = { email, hash, key };
	PGresult *res = NULL;
	enum core_err er;

	*uid = 0;
	if ((er = core_db_exec(db, ACCOUNTS_SQL_USER_CREATE, p, 3, &res)) !=
	    CORE_OK)
		return er;
	if (PQntuples(res) == 1)
		*uid = getll(res, 0, 0);
	PQclear(res);
	return CORE_OK;
}

enum core_err
acc_store_user_by_email(struct core_db *db, const char *key, long long *uid,
    char **hash, char **stored)
{
	const char *p[1] = { key };
	PGresult *res = NULL;
	enum core_err er;

	*uid = 0;
	*hash = NULL;
	*stored = NULL;
	if ((er = core_db_exec(db, ACCOUNTS_SQL_USER_BY_EMAIL, p, 1, &res)) !=
	    CORE_OK)
		return er;
	if (PQntuples(res) == 1) {
		*uid = getll(res, 0, 0);
		*hash = core_xstrdup(PQgetvalue(res, 0, 1));
		*stored = core_xstrdup(PQgetvalue(res, 0, 2));
	}
	PQclear(res);
	return CORE_OK;
}

enum core_err
acc_store_session_create(struct core_db *db, const char *hash, long long uid,
    long ttl)
{
	char ub[24], tb[24];
	const char *p[3] = { hash, ub, tb };
	PGresult *res = NULL;
	enum core_err er;

	ID(ub, uid);
	ID(tb, ttl);
	if ((er = core_db_exec(db, ACCOUNTS_SQL_SESSION_PURGE, NULL, 0,
		 &res)) != CORE_OK)
		return er;
	PQclear(res);
	res = NULL;
	er = core_db_exec(db, ACCOUNTS_SQL_SESSION_CREATE, p, 3, &res);
	PQclear(res);
	return er;
}

enum core_err
acc_store_session_user(struct core_db *db, const char *hash, long long *uid,
    char email[ACC_EMAIL_MAX + 1])
{
	const char *p[1] = { hash };
	PGresult *res = NULL;
	enum core_err er;

	*uid = 0;
	email[0] = '\0';
	if ((er = core_db_exec(db, ACCOUNTS_SQL_SESSION_USER, p, 1, &res)) !=
	    CORE_OK)
		return er;
	if (PQntuples(res) == 1) {
		*uid = getll(res, 0, 0);
		snprintf(email, ACC_EMAIL_MAX + 1, "%s", PQgetvalue(res, 0, 1));
	}
	PQclear(res);
	return CORE_OK;
}

enum core_err
acc_store_session_delete(struct core_db *db, const char *hash)
{
	const char *p[1] = { hash };
	PGresult *res = NULL;
	enum core_err er;

	er = core_db_exec(db, ACCOUNTS_SQL_SESSION_DELETE, p, 1, &res);
	PQclear(res);
	return er;
}

enum core_err
acc_store_follow_state(struct core_db *db, long long uid, long long rid,
    char **slug, int *following)
{
	char ub[24], rb[24];
	const char *p[2] = { ub, rb };
	PGresult *res = NULL;
	enum core_err er;

	*slug = NULL;
	*following = 0;
	ID(ub, uid);
	ID(rb, rid);
	if ((er = core_db_exec(db, ACCOUNTS_SQL_FOLLOW_STATE, p, 2, &res)) !=
	    CORE_OK)
		return er;
	if (PQntuples(res) != 1)
		er = CORE_ENOTFOUND;
	else {
		*slug = core_xstrdup(PQgetvalue(res, 0, 0));
		*following = getbool(res, 0, 1);
	}
	PQclear(res);
	return er;
}

static enum core_err
pair(struct core_db *db, int stmt, long long a, long long b)
{
	char ab[24], bb[24];
	const char *p[2] = { ab, bb };
	PGresult *res = NULL;
	enum core_err er;

	ID(ab, a);
	ID(bb, b);
	er = core_db_exec(db, stmt, p, 2, &res);
	PQclear(res);
	return er;
}

enum core_err
acc_store_follow(struct core_db *db, long long uid, long long rid)
{
	return pair(db, ACCOUNTS_SQL_FOLLOW, uid, rid);
}

enum core_err
acc_store_unfollow(struct core_db *db, long long uid, long long rid)
{
	return pair(db, ACCOUNTS_SQL_UNFOLLOW, uid, rid);
}

/* A researcher row for lists; id, name, slug from columns 0..2. */
static json_t *
researcher_row(const char *base, const PGresult *res, int i)
{
	long long id = getll(res, i, 0);
	char *path;
	json_t *o;

	path = researcher_path(id, PQgetvalue(res, i, 2));
	o = json_pack("{s:I,s:o,s:o,s:o}", "id", (json_int_t)id, "name",
	    core_json_str(PQgetvalue(res, i, 1)), "url", abs_url(base, path),
	    "path", core_json_str(path));
	free(path);
	return o;
}

enum core_err
acc_store_following(struct core_db *db, const char *base, long long uid,
    json_t **out)
{
	char ub[24];
	const char *p[1] = { ub };
	PGresult *res = NULL;
	enum core_err er;
	json_t *a, *o;
	int i;

	*out = NULL;
	ID(ub, uid);
	if ((er = core_db_exec(db, ACCOUNTS_SQL_FOLLOWING, p, 1, &res)) !=
	    CORE_OK)
		return er;
	a = json_array();
	for (i = 0; i < PQntuples(res); i++) {
		o = researcher_row(base, res, i);
		json_object_set_new(o, "papers",
		    json_integer(getll(res, i, 3)));
		json_object_set_new(o, "latest_paper", getstr(res, i, 4));
		json_array_append_new(a, o);
	}
	PQclear(res);
	*out = a;
	return CORE_OK;
}

enum core_err
acc_store_feed_token_created(struct core_db *db, long long uid, char **created)
{
	char ub[24];
	const char *p[1] = { ub };
	PGresult *res = NULL;
	enum core_err er;

	*created = NULL;
	ID(ub, uid);
	if ((er = core_db_exec(db, ACCOUNTS_SQL_FEED_TOKEN_CREATED, p, 1,
		 &res)) != CORE_OK)
		return er;
	*created =
	    core_xstrdup(PQntuples(res) == 1 ? PQgetvalue(res, 0, 0) : "");
	PQclear(res);
	return CORE_OK;
}

enum core_err
acc_store_feed_token_set(struct core_db *db, long long uid, const char *hash)
{
	char ub[24];
	const char *p[2] = { ub, hash };
	PGresult *res = NULL;
	enum core_err er;

	ID(ub, uid);
	er = core_db_exec(db, ACCOUNTS_SQL_FEED_TOKEN_SET, p, 2, &res);
	PQclear(res);
	return er;
}

/* Attaches "authors" to each card of items (by paper id). */
static enum core_err
feed_authors(struct core_db *db, const char *base, long long uid, json_t *items)
{
	struct core_buf ids = CORE_BUF_INIT;
	char ub[24];
	const char *p[3];
	PGresult *res = NULL;
	enum core_err er;
	json_t *card, *a;
	size_t k;
	int i;

	if (json_array_size(items) == 0)
		return CORE_OK;
	core_buf_putc(&ids, '{');
	json_array_foreach(items, k, card)
	    core_buf_printf(&ids, "%s%" JSON_INTEGER_FORMAT, k ? "," : "",
		json_integer_value(json_object_get(card, "id")));
	core_buf_putc(&ids, '}');
	ID(ub, uid);
	p[0] = core_buf_cstr(&ids);
	p[1] = "8";
	p[2] = ub;
	er = core_db_exec(db, ACCOUNTS_SQL_FEED_AUTHORS, p, 3, &res);
	core_buf_free(&ids);
	if (er != CORE_OK)
		return er;
	json_array_foreach(items, k, card)
	    json_object_set_new(card, "authors", json_array());
	for (i = 0; i < PQntuples(res); i++) {
		long long pid = getll(res, i, 0);
		json_t *au;

		card = NULL;
		json_array_foreach(items, k,
		    a) if (json_integer_value(json_object_get(a, "id")) == pid)
		{
			card = a;
			break;
		}
		if (card == NULL)
			continue;
		au = json_pack("{s:o,s:b}", "name",
		    core_json_str(PQgetvalue(res, i, 1)), "followed",
		    getbool(res, i, 4));
		if (!PQgetisnull(res, i, 2)) {
			char *path = researcher_path(getll(res, i, 2),
			    PQgetvalue(res, i, 3));
			json_object_set_new(au, "url", abs_url(base, path));
			free(path);
		} else
			json_object_set_new(au, "url", json_null());
		json_array_append_new(json_object_get(card, "authors"), au);
	}
	PQclear(res);
	return CORE_OK;
}

enum core_err
acc_store_feed(struct core_db *db, const char *base, long long uid, long page,
    json_t **items, long long *total)
{
	char ub[24], nb[24], ob[24];
	const char *p[3] = { ub, nb, ob };
	PGresult *res = NULL;
	enum core_err er;
	json_t *a = NULL, *card, *cats;
	char *path;
	int i;

	*items = NULL;
	*total = 0;
	ID(ub, uid);
	ID(nb, ACC_PER_PAGE);
	ID(ob, (page - 1) * ACC_PER_PAGE);
	if ((er = core_db_exec(db, ACCOUNTS_SQL_FEED_COUNT, p, 1, &res)) !=
	    CORE_OK)
		return er;
	*total = getll(res, 0, 0);
	PQclear(res);
	res = NULL;
	if ((er = core_db_exec(db, ACCOUNTS_SQL_FEED_PAGE, p, 3, &res)) !=
	    CORE_OK)
		return er;
	a = json_array();
	for (i = 0; i < PQntuples(res); i++) {
		const char *slug = PQgetvalue(res, i, 3);

		path = *slug != '\0'
		    ? core_xasprintf("/papers/%s-%s", PQgetvalue(res, i, 1),
			  slug)
		    : core_xasprintf("/papers/%s", PQgetvalue(res, i, 1));
		cats = json_loads(PQgetvalue(res, i, 6), 0, NULL);
		card = json_pack("{s:I,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:I,s:b}",
		    "id", (json_int_t)getll(res, i, 0), "arxiv_id",
		    core_json_str(PQgetvalue(res, i, 1)), "title",
		    core_json_str(PQgetvalue(res, i, 2)), "url",
		    abs_url(base, path), "published", getstr(res, i, 4),
		    "primary_category", core_json_str(PQgetvalue(res, i, 5)),
		    "categories", cats != NULL ? cats : json_array(),
		    "citation_count",
		    PQgetisnull(res, i, 7) ? json_null()
					   : json_integer(getll(res, i, 7)),
		    "author_count", (json_int_t)getll(res, i, 8),
		    "fully_matched", getbool(res, i, 9));
		free(path);
		json_array_append_new(a, card);
	}
	PQclear(res);
	if ((er = feed_authors(db, base, uid, a)) != CORE_OK) {
		json_decref(a);
		return er;
	}
	*items = a;
	return CORE_OK;
}

enum core_err
acc_store_fields(struct core_db *db, json_t **out)
{
	PGresult *res = NULL;
	enum core_err er;
	json_t *a;
	int i;

	*out = NULL;
	if ((er = core_db_exec(db, ACCOUNTS_SQL_FIELDS, NULL, 0, &res)) !=
	    CORE_OK)
		return er;
	a = json_array();
	for (i = 0; i < PQntuples(res); i++)
		json_array_append_new(a,
		    json_pack("{s:o,s:I}", "code",
			core_json_str(PQgetvalue(res, i, 0)), "papers",
			(json_int_t)getll(res, i, 1)));
	PQclear(res);
	*out = a;
	return CORE_OK;
}

/* Rows of id, name, slug, papers, following. */
static enum core_err
suggestions(struct core_db *db, const char *base, int stmt, const char *arg,
    long long uid, json_t **out)
{
	char ub[24];
	const char *p[2] = { arg, ub };
	PGresult *res = NULL;
	enum core_err er;
	json_t *a, *o;
	int i;

	*out = NULL;
	ID(ub, uid);
	if ((er = core_db_exec(db, stmt, p, 2, &res)) != CORE_OK)
		return er;
	a = json_array();
	for (i = 0; i < PQntuples(res); i++) {
		o = researcher_row(base, res, i);
		json_object_set_new(o, "papers",
		    json_integer(getll(res, i, 3)));
		json_object_set_new(o, "following",
		    json_boolean(getbool(res, i, 4)));
		json_array_append_new(a, o);
	}
	PQclear(res);
	*out = a;
	return CORE_OK;
}

enum core_err
acc_store_top_in_field(struct core_db *db, const char *base, long long uid,
    const char *field, json_t **out)
{
	return suggestions(db, base, ACCOUNTS_SQL_TOP_IN_FIELD, field, uid,
	    out);
}

enum core_err
acc_store_search(struct core_db *db, const char *base, long long uid,
    const char *q, json_t **out)
{
	struct core_buf b = CORE_BUF_INIT;
	enum core_err er;

	/*
	 * LIKE's own metacharacters are data here.  The escape character
	 * is '!' (accounts.sql says why not a backslash).
	 */
	for (; *q != '\0'; q++) {
		if (*q == '%' || *q == '_' || *q == '!')
			core_buf_putc(&b, '!');
		core_buf_putc(&b, *q);
	}
	er = suggestions(db, base, ACCOUNTS_SQL_SEARCH_NAME, core_buf_cstr(&b),
	    uid, out);
	core_buf_free(&b);
	return er;
}

enum core_err
acc_store_email_keys_fill(struct core_db *db, int *conflicts)
{
	PGresult *res = NULL, *set = NULL;
	char key[ACC_EMAIL_KEY_MAX + 1];
	const char *p[2];
	int i, n, cid, cemail;
	enum core_err er;

	*conflicts = 0;
	if ((er = core_db_exec(db, ACCOUNTS_SQL_EMAIL_KEY_PENDING, NULL, 0,
		 &res)) != CORE_OK)
		return er;
	n = PQntuples(res);
	cid = PQfnumber(res, "id");
	cemail = PQfnumber(res, "email");
	/* In id order in every worker: the older account gets the key. */
	for (i = 0; i < n; i++) {
		p[0] = PQgetvalue(res, i, cid);
		if (acc_email_key(PQgetvalue(res, i, cemail), key,
			sizeof(key)) != 0) {
			core_log(CORE_LOG_WARN, "email_key",
			    "user %s: the stored address has no key "
			    "(not UTF-8?); it cannot sign in",
			    p[0]);
			(*conflicts)++;
			continue;
		}
		p[1] = key;
		if ((er = core_db_exec(db, ACCOUNTS_SQL_EMAIL_KEY_SET, p, 2,
			 &set)) != CORE_OK)
			goto out;
		if (PQgetisnull(set, 0, PQfnumber(set, "updated")) &&
		    !PQgetisnull(set, 0, PQfnumber(set, "holder"))) {
			core_log(CORE_LOG_WARN, "email_key",
			    "user %s: the address folds to that of user %s, "
			    "which keeps it; %s keeps its data and sessions "
			    "but cannot sign in by email (README, \"Email "
			    "addresses\")",
			    p[0], PQgetvalue(set, 0, PQfnumber(set, "holder")),
			    p[0]);
			(*conflicts)++;
		}
		PQclear(set);
		set = NULL;
	}
out:
	PQclear(set);
	PQclear(res);
	return er;
}
