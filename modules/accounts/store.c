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

/*
 * Runs stmt with the integers ids[0..n) as $1..$n (n at most 2).  On
 * CORE_OK the caller PQclear()s *resp.
 */
static enum core_err
exec_ids(struct core_db *db, int stmt, const long long *ids, int n,
    PGresult **resp)
{
	char b[2][24];
	const char *p[2] = { b[0], b[1] };
	int i;

	for (i = 0; i < n && i < 2; i++)
		ID(b[i], ids[i]);
	return core_db_exec(db, stmt, p, n < 2 ? n : 2, resp);
}

/*
 * Runs stmt with the parameters p[0..n).  On CORE_OK *resp is its result
 * when it returned exactly one row (the caller PQclear()s it), else NULL:
 * a lookup that found nothing leaves its outputs at their zero values.
 */
static enum core_err
exec_row(struct core_db *db, int stmt, const char *const *p, int n,
    PGresult **resp)
{
	enum core_err er;

	*resp = NULL;
	if ((er = core_db_exec(db, stmt, p, n, resp)) != CORE_OK)
		return er;
	if (PQntuples(*resp) != 1) {
		PQclear(*resp);
		*resp = NULL;
	}
	return CORE_OK;
}

/*
 * Runs stmt with the parameters p[0..n) and reads the bigint in column
 * col of its single row into *v: 0 when it returns no row.
 */
static enum core_err
exec_bigint(struct core_db *db, int stmt, const char *const *p, int n, int col,
    long long *v)
{
	PGresult *res;
	enum core_err er;

	*v = 0;
	if ((er = exec_row(db, stmt, p, n, &res)) != CORE_OK || res == NULL)
		return er;
	*v = core_cell_bigint(res, 0, col, 0);
	PQclear(res);
	return CORE_OK;
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

	return exec_bigint(db, ACCOUNTS_SQL_USER_CREATE, p, 3,
	    ACCOUNTS_USER_CREATE__ID, uid);
}

enum core_err
acc_store_user_by_email(struct core_db *db, const char *key, long long *uid,
    char **hash, char **stored)
{
	const char *p[1] = { key };
	PGresult *res;
	enum core_err er;

	*uid = 0;
	*hash = NULL;
	*stored = NULL;
	if ((er = exec_row(db, ACCOUNTS_SQL_USER_BY_EMAIL, p, 1, &res)) !=
		CORE_OK ||
	    res == NULL)
		return er;
	*uid = core_cell_bigint(res, 0, ACCOUNTS_USER_BY_EMAIL__ID, 0);
	*hash = core_xstrdup(
	    core_cell_text(res, 0, ACCOUNTS_USER_BY_EMAIL__PASSWORD_HASH));
	*stored =
	    core_xstrdup(core_cell_text(res, 0, ACCOUNTS_USER_BY_EMAIL__EMAIL));
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
	PGresult *res;
	enum core_err er;

	*uid = 0;
	email[0] = '\0';
	if ((er = exec_row(db, ACCOUNTS_SQL_SESSION_USER, p, 1, &res)) !=
		CORE_OK ||
	    res == NULL)
		return er;
	*uid = core_cell_bigint(res, 0, ACCOUNTS_SESSION_USER__ID, 0);
	snprintf(email, ACC_EMAIL_MAX + 1, "%s",
	    core_cell_text(res, 0, ACCOUNTS_SESSION_USER__EMAIL));
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
	PGresult *res = NULL;
	enum core_err er;

	*slug = NULL;
	*following = 0;
	if ((er = exec_ids(db, ACCOUNTS_SQL_FOLLOW_STATE,
		 (const long long[]){ uid, rid }, 2, &res)) != CORE_OK)
		return er;
	if (PQntuples(res) != 1)
		er = CORE_ENOTFOUND;
	else {
		*slug = core_xstrdup(
		    core_cell_text(res, 0, ACCOUNTS_FOLLOW_STATE__SLUG));
		*following =
		    core_cell_bool(res, 0, ACCOUNTS_FOLLOW_STATE__FOLLOWING, 0);
	}
	PQclear(res);
	return er;
}

static enum core_err
pair(struct core_db *db, int stmt, long long a, long long b)
{
	PGresult *res = NULL;
	enum core_err er;

	er = exec_ids(db, stmt, (const long long[]){ a, b }, 2, &res);
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

/*
 * Where a researcher list statement keeps a row's fields (its column
 * enums): FOLLOWING's "more" is latest_paper, the suggestions' whether
 * the user follows the researcher.
 */
struct researcher_cols {
	int id, name, slug, papers, more;
};

static const struct researcher_cols following_cols = { ACCOUNTS_FOLLOWING__ID,
	ACCOUNTS_FOLLOWING__NAME, ACCOUNTS_FOLLOWING__SLUG,
	ACCOUNTS_FOLLOWING__PAPER_COUNT, ACCOUNTS_FOLLOWING__LATEST_PAPER };
static const struct researcher_cols top_cols = { ACCOUNTS_TOP_IN_FIELD__ID,
	ACCOUNTS_TOP_IN_FIELD__NAME, ACCOUNTS_TOP_IN_FIELD__SLUG,
	ACCOUNTS_TOP_IN_FIELD__N, ACCOUNTS_TOP_IN_FIELD__FOLLOWING };
static const struct researcher_cols search_cols = { ACCOUNTS_SEARCH_NAME__ID,
	ACCOUNTS_SEARCH_NAME__NAME, ACCOUNTS_SEARCH_NAME__SLUG,
	ACCOUNTS_SEARCH_NAME__PAPER_COUNT, ACCOUNTS_SEARCH_NAME__FOLLOWING };

/* A researcher row for lists: id, name, url, path, papers. */
static json_t *
researcher_row(const char *base, const PGresult *res, int i,
    const struct researcher_cols *k)
{
	long long id = core_cell_bigint(res, i, k->id, 0);
	char *path;
	json_t *o;

	path = researcher_path(id, core_cell_text(res, i, k->slug));
	o = json_pack("{s:I,s:o,s:o,s:o,s:I}", "id", (json_int_t)id, "name",
	    core_cell_jtext(res, i, k->name), "url", abs_url(base, path),
	    "path", core_json_str(path), "papers",
	    (json_int_t)core_cell_bigint(res, i, k->papers, 0));
	free(path);
	return o;
}

enum core_err
acc_store_following(struct core_db *db, const char *base, long long uid,
    json_t **out)
{
	PGresult *res = NULL;
	enum core_err er;
	json_t *a, *o;
	int i;

	*out = NULL;
	if ((er = exec_ids(db, ACCOUNTS_SQL_FOLLOWING,
		 (const long long[]){ uid }, 1, &res)) != CORE_OK)
		return er;
	a = json_array();
	for (i = 0; i < PQntuples(res); i++) {
		o = researcher_row(base, res, i, &following_cols);
		json_object_set_new(o, "latest_paper",
		    core_cell_jtext(res, i, following_cols.more));
		json_array_append_new(a, o);
	}
	PQclear(res);
	*out = a;
	return CORE_OK;
}

enum core_err
acc_store_feed_token_created(struct core_db *db, long long uid, char **created)
{
	PGresult *res = NULL;
	enum core_err er;

	*created = NULL;
	if ((er = exec_ids(db, ACCOUNTS_SQL_FEED_TOKEN_CREATED,
		 (const long long[]){ uid }, 1, &res)) != CORE_OK)
		return er;
	*created = core_xstrdup(PQntuples(res) == 1 &&
		    !core_cell_isnull(res, 0,
			ACCOUNTS_FEED_TOKEN_CREATED__CREATED)
		? core_cell_text(res, 0, ACCOUNTS_FEED_TOKEN_CREATED__CREATED)
		: "");
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
		long long pid = core_cell_bigint(res, i,
		    ACCOUNTS_FEED_AUTHORS__PAPER_ID, 0);
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
		    core_cell_jtext(res, i, ACCOUNTS_FEED_AUTHORS__RAW_NAME),
		    "followed",
		    core_cell_bool(res, i, ACCOUNTS_FEED_AUTHORS__FOLLOWED, 0));
		if (!core_cell_isnull(res, i, ACCOUNTS_FEED_AUTHORS__ID)) {
			char *path =
			    researcher_path(core_cell_bigint(res, i,
						ACCOUNTS_FEED_AUTHORS__ID, 0),
				core_cell_text(res, i,
				    ACCOUNTS_FEED_AUTHORS__SLUG));
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
	if ((er = core_db_exec(db, ACCOUNTS_SQL_FEED_PAGE, p, 3, &res)) !=
	    CORE_OK)
		return er;
	if (PQntuples(res) > 0)
		*total = core_cell_bigint(res, 0, ACCOUNTS_FEED_PAGE__TOTAL, 0);
	a = json_array();
	for (i = 0; i < PQntuples(res); i++) {
		const char *aid =
		    core_cell_text(res, i, ACCOUNTS_CARD__ARXIV_ID);
		const char *slug = core_cell_text(res, i, ACCOUNTS_CARD__SLUG);

		path = slug != NULL && *slug != '\0'
		    ? core_xasprintf("/papers/%s-%s", aid, slug)
		    : core_xasprintf("/papers/%s", aid);
		cats = core_cell_json(res, i, ACCOUNTS_CARD__CATEGORIES, NULL);
		if (!json_is_array(cats)) {
			json_decref(cats);
			cats = json_array();
		}
		card = json_pack("{s:I,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:I,s:b}",
		    "id",
		    (json_int_t)core_cell_bigint(res, i, ACCOUNTS_CARD__ID, 0),
		    "arxiv_id", core_json_str(aid), "title",
		    core_cell_jtext(res, i, ACCOUNTS_CARD__TITLE), "url",
		    abs_url(base, path), "published",
		    core_cell_jtext(res, i, ACCOUNTS_CARD__PUBLISHED),
		    "primary_category",
		    core_cell_jtext(res, i, ACCOUNTS_CARD__PRIMARY_CATEGORY),
		    "categories", cats, "citation_count",
		    core_cell_jint(res, i, ACCOUNTS_CARD__CITATION_COUNT),
		    "author_count",
		    (json_int_t)core_cell_bigint(res, i,
			ACCOUNTS_CARD__AUTHOR_COUNT, 0),
		    "fully_matched",
		    core_cell_bool(res, i, ACCOUNTS_CARD__FULLY_MATCHED, 0));
		free(path);
		/* Why the item is there (0026 weft_follow_items). */
		json_object_set_new(card, "version",
		    json_integer(
			core_cell_int(res, i, ACCOUNTS_FEED_PAGE__VERSION, 1)));
		json_object_set_new(card, "date",
		    core_cell_jtext(res, i, ACCOUNTS_FEED_PAGE__AT));
		json_object_set_new(card, "why",
		    core_cell_jtext(res, i, ACCOUNTS_FEED_PAGE__WHY));
		json_object_set_new(card, "reasons",
		    core_cell_json(res, i, ACCOUNTS_FEED_PAGE__REASONS,
			json_array()));
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
acc_store_feed_export(struct core_db *db, long long uid, long long max,
    json_t **papers, long long *total)
{
	PGresult *res = NULL;
	enum core_err er;
	int i;

	*papers = NULL;
	*total = 0;
	if ((er = exec_ids(db, ACCOUNTS_SQL_FEED_EXPORT,
		 (const long long[]){ uid, max }, 2, &res)) != CORE_OK)
		return er;
	*papers = json_array();
	for (i = 0; i < PQntuples(res); i++) {
		if (i == 0)
			*total = core_cell_bigint(res, 0,
			    ACCOUNTS_FEED_EXPORT__TOTAL, 0);
		json_array_append_new(*papers,
		    core_cell_json(res, i, ACCOUNTS_FEED_EXPORT__PAPER,
			json_null()));
	}
	PQclear(res);
	return CORE_OK;
}

enum core_err
acc_store_fields(struct core_db *db, json_t **out)
{
	static const struct core_cell_field fields[] = {
		{ "code", ACCOUNTS_FIELDS__PRIMARY_CATEGORY, CORE_CELL_TEXT },
		{ "papers", ACCOUNTS_FIELDS__PAPERS, CORE_CELL_INT },
	};
	PGresult *res = NULL;
	enum core_err er;

	*out = NULL;
	if ((er = core_db_exec(db, ACCOUNTS_SQL_FIELDS, NULL, 0, &res)) !=
	    CORE_OK)
		return er;
	*out = core_rows_json(res, fields, sizeof(fields) / sizeof(fields[0]));
	PQclear(res);
	return CORE_OK;
}

/* Rows of id, name, slug, papers, following where k says. */
static enum core_err
suggestions(struct core_db *db, const char *base, int stmt,
    const struct researcher_cols *k, const char *arg, long long uid,
    json_t **out)
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
		o = researcher_row(base, res, i, k);
		json_object_set_new(o, "following",
		    json_boolean(core_cell_bool(res, i, k->more, 0)));
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
	return suggestions(db, base, ACCOUNTS_SQL_TOP_IN_FIELD, &top_cols,
	    field, uid, out);
}

enum core_err
acc_store_search(struct core_db *db, const char *base, long long uid,
    const char *q, json_t **out)
{
	/* The name is data to weft_names_close(): its words, not a
	 * pattern. */
	return suggestions(db, base, ACCOUNTS_SQL_SEARCH_NAME, &search_cols, q,
	    uid, out);
}

/* ------------------------------------------------------------------ */
/* Email verification, password reset, sessions, deletion (issue 18).  */
/* ------------------------------------------------------------------ */

/* Runs stmt and throws the result away. */
static enum core_err
exec_only(struct core_db *db, int stmt, const char *const *p, int n)
{
	PGresult *res = NULL;
	enum core_err er;

	er = core_db_exec(db, stmt, p, n, &res);
	PQclear(res);
	return er;
}

enum core_err
acc_store_user_mail_state(struct core_db *db, const char *email, long long *uid,
    char stored[ACC_EMAIL_MAX + 1], int *verified)
{
	const char *p[1] = { email };
	PGresult *res;
	enum core_err er;

	*uid = 0;
	stored[0] = '\0';
	*verified = 0;
	if ((er = exec_row(db, ACCOUNTS_SQL_USER_MAIL_STATE, p, 1, &res)) !=
		CORE_OK ||
	    res == NULL)
		return er;
	*uid = core_cell_bigint(res, 0, ACCOUNTS_USER_MAIL_STATE__ID, 0);
	snprintf(stored, ACC_EMAIL_MAX + 1, "%s",
	    PQgetvalue(res, 0, ACCOUNTS_USER_MAIL_STATE__EMAIL));
	*verified =
	    core_cell_bool(res, 0, ACCOUNTS_USER_MAIL_STATE__VERIFIED, 0);
	PQclear(res);
	return CORE_OK;
}

enum core_err
acc_store_user_get(struct core_db *db, long long uid, struct acc_user *u)
{
	PGresult *res = NULL;
	enum core_err er;

	memset(u, 0, sizeof(*u));
	if ((er = exec_ids(db, ACCOUNTS_SQL_USER_BY_ID,
		 (const long long[]){ uid }, 1, &res)) != CORE_OK)
		return er;
	if (PQntuples(res) != 1) {
		PQclear(res);
		return CORE_ENOTFOUND;
	}
	u->id = uid;
	snprintf(u->email, sizeof(u->email), "%s",
	    PQgetvalue(res, 0, ACCOUNTS_USER_BY_ID__EMAIL));
	u->hash = core_xstrdup(
	    PQgetvalue(res, 0, ACCOUNTS_USER_BY_ID__PASSWORD_HASH));
	u->verified = core_cell_bool(res, 0, ACCOUNTS_USER_BY_ID__VERIFIED, 0);
	snprintf(u->verified_at, sizeof(u->verified_at), "%s",
	    PQgetvalue(res, 0, ACCOUNTS_USER_BY_ID__VERIFIED_AT));
	PQclear(res);
	return CORE_OK;
}

/* Runs stmt, whose parameters are uid and then s (NULL: none). */
static enum core_err
exec_uid(struct core_db *db, int stmt, long long uid, const char *s)
{
	char ub[24];
	const char *p[2] = { ub, s };

	ID(ub, uid);
	return exec_only(db, stmt, p, s != NULL ? 2 : 1);
}

enum core_err
acc_store_user_set_password(struct core_db *db, long long uid, const char *hash)
{
	return exec_uid(db, ACCOUNTS_SQL_USER_SET_PASSWORD, uid, hash);
}

enum core_err
acc_store_user_set_verified(struct core_db *db, long long uid)
{
	return exec_uid(db, ACCOUNTS_SQL_USER_SET_VERIFIED, uid, NULL);
}

enum core_err
acc_store_user_delete(struct core_db *db, long long uid)
{
	return exec_uid(db, ACCOUNTS_SQL_USER_DELETE, uid, NULL);
}

enum core_err
acc_store_mail_token_new(struct core_db *db, long long uid, const char *purpose,
    const char *hash, long ttl, const char *pwhash)
{
	char ub[24], tb[24];
	const char *p[5] = { hash, ub, purpose, tb, pwhash };
	enum core_err er;

	ID(ub, uid);
	ID(tb, ttl);
	if ((er = acc_store_mail_tokens_clear(db, uid, purpose)) != CORE_OK)
		return er;
	return exec_only(db, ACCOUNTS_SQL_MAIL_TOKEN_CREATE, p, 5);
}

enum core_err
acc_store_mail_tokens_clear(struct core_db *db, long long uid,
    const char *purpose)
{
	return exec_uid(db, ACCOUNTS_SQL_MAIL_TOKEN_CLEAR, uid, purpose);
}

enum core_err
acc_store_mail_token_user(struct core_db *db, const char *hash,
    const char *purpose, int take, long long *uid, char **pwhash)
{
	const char *p[2] = { hash, purpose };
	PGresult *res = NULL;
	enum core_err er;

	*uid = 0;
	*pwhash = NULL;
	if ((er = core_db_exec(db,
		 take ? ACCOUNTS_SQL_MAIL_TOKEN_TAKE
		      : ACCOUNTS_SQL_MAIL_TOKEN_PEEK,
		 p, 2, &res)) != CORE_OK)
		return er;
	if (PQntuples(res) == 1) {
		/* PEEK and TAKE return the same columns. */
		*uid = core_cell_bigint(res, 0,
		    ACCOUNTS_MAIL_TOKEN_PEEK__USER_ID, 0);
		if (!core_cell_isnull(res, 0,
			ACCOUNTS_MAIL_TOKEN_PEEK__PASSWORD_HASH))
			*pwhash = core_xstrdup(core_cell_text(res, 0,
			    ACCOUNTS_MAIL_TOKEN_PEEK__PASSWORD_HASH));
	}
	PQclear(res);
	return CORE_OK;
}

enum core_err
acc_store_session_describe(struct core_db *db, const char *hash,
    const char *agent, const char *network)
{
	const char *p[3] = { hash, agent, network };

	return exec_only(db, ACCOUNTS_SQL_SESSION_DESCRIBE, p, 3);
}

enum core_err
acc_store_session_touch(struct core_db *db, const char *hash)
{
	const char *p[1] = { hash };

	return exec_only(db, ACCOUNTS_SQL_SESSION_TOUCH, p, 1);
}

/*
 * Runs stmt, whose parameters are uid and then s (NULL: none), and sets
 * *out to its rows as objects of fields[0..n) (caller decrefs).
 */
static enum core_err
rows_of_user(struct core_db *db, int stmt, long long uid, const char *s,
    const struct core_cell_field *fields, size_t n, json_t **out)
{
	char ub[24];
	const char *p[2] = { ub, s };
	PGresult *res = NULL;
	enum core_err er;

	*out = NULL;
	ID(ub, uid);
	if ((er = core_db_exec(db, stmt, p, s != NULL ? 2 : 1, &res)) !=
	    CORE_OK)
		return er;
	*out = core_rows_json(res, fields, n);
	PQclear(res);
	return CORE_OK;
}

enum core_err
acc_store_sessions(struct core_db *db, long long uid, const char *current,
    json_t **out)
{
	static const struct core_cell_field fields[] = {
		{ "id", ACCOUNTS_SESSION_LIST__ID, CORE_CELL_INT },
		{ "created_at", ACCOUNTS_SESSION_LIST__CREATED,
		    CORE_CELL_TEXT },
		{ "last_seen_at", ACCOUNTS_SESSION_LIST__LAST_SEEN,
		    CORE_CELL_TEXT },
		{ "agent", ACCOUNTS_SESSION_LIST__AGENT, CORE_CELL_TEXT },
		{ "network", ACCOUNTS_SESSION_LIST__NETWORK, CORE_CELL_TEXT },
		{ "current", ACCOUNTS_SESSION_LIST__CURRENT, CORE_CELL_BOOL },
	};

	/* "" matches no session: SESSION_LIST's current is then false. */
	return rows_of_user(db, ACCOUNTS_SQL_SESSION_LIST, uid,
	    current != NULL ? current : "", fields,
	    sizeof(fields) / sizeof(fields[0]), out);
}

/* Runs DELETE stmt with (uid, id); *gone 1 when it deleted a row. */
static enum core_err
delete_of_user(struct core_db *db, int stmt, long long uid, long long id,
    int *gone)
{
	PGresult *res = NULL;
	enum core_err er;

	*gone = 0;
	if ((er = exec_ids(db, stmt, (const long long[]){ uid, id }, 2,
		 &res)) != CORE_OK)
		return er;
	*gone = atoi(PQcmdTuples(res)) > 0;
	PQclear(res);
	return CORE_OK;
}

enum core_err
acc_store_session_delete_id(struct core_db *db, long long uid, long long id,
    int *gone)
{
	return delete_of_user(db, ACCOUNTS_SQL_SESSION_DELETE_ID, uid, id,
	    gone);
}

enum core_err
acc_store_sessions_end_others(struct core_db *db, long long uid,
    const char *keep)
{
	return exec_uid(db, ACCOUNTS_SQL_SESSION_DELETE_OTHERS, uid,
	    keep != NULL ? keep : "");
}

enum core_err
acc_store_email_keys_fill(struct core_db *db, int *conflicts)
{
	PGresult *res = NULL, *set = NULL;
	char key[ACC_EMAIL_KEY_MAX + 1];
	const char *p[2];
	int i, n;
	enum core_err er;

	*conflicts = 0;
	if ((er = core_db_exec(db, ACCOUNTS_SQL_EMAIL_KEY_PENDING, NULL, 0,
		 &res)) != CORE_OK)
		return er;
	n = PQntuples(res);
	/* In id order in every worker: the older account gets the key. */
	for (i = 0; i < n; i++) {
		p[0] = core_cell_text(res, i, ACCOUNTS_EMAIL_KEY_PENDING__ID);
		if (acc_email_key(core_cell_text(res, i,
				      ACCOUNTS_EMAIL_KEY_PENDING__EMAIL),
			key, sizeof(key)) != 0) {
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
		if (core_cell_isnull(set, 0, ACCOUNTS_EMAIL_KEY_SET__UPDATED) &&
		    !core_cell_isnull(set, 0, ACCOUNTS_EMAIL_KEY_SET__HOLDER)) {
			core_log(CORE_LOG_WARN, "email_key",
			    "user %s: the address folds to that of user %s, "
			    "which keeps it; %s keeps its data and sessions "
			    "but cannot sign in by email (README, \"Email "
			    "addresses\")",
			    p[0],
			    core_cell_text(set, 0,
				ACCOUNTS_EMAIL_KEY_SET__HOLDER),
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

enum core_err
acc_store_api_keys(struct core_db *db, long long uid, json_t **out)
{
	static const struct core_cell_field fields[] = {
		{ "id", ACCOUNTS_API_KEYS__ID, CORE_CELL_INT },
		{ "name", ACCOUNTS_API_KEYS__NAME, CORE_CELL_TEXT },
		{ "created_at", ACCOUNTS_API_KEYS__CREATED, CORE_CELL_TEXT },
	};

	return rows_of_user(db, ACCOUNTS_SQL_API_KEYS, uid, NULL, fields,
	    sizeof(fields) / sizeof(fields[0]), out);
}

enum core_err
acc_store_api_key_add(struct core_db *db, long long uid, const char *name,
    const char *hash, long long *id)
{
	char ub[24];
	const char *p[3] = { ub, name, hash };

	ID(ub, uid);
	return exec_bigint(db, ACCOUNTS_SQL_API_KEY_ADD, p, 3,
	    ACCOUNTS_API_KEY_ADD__ID, id);
}

enum core_err
acc_store_api_key_revoke(struct core_db *db, long long uid, long long id,
    char hash[65])
{
	PGresult *res = NULL;
	enum core_err er;

	hash[0] = '\0';
	if ((er = exec_ids(db, ACCOUNTS_SQL_API_KEY_REVOKE,
		 (const long long[]){ uid, id }, 2, &res)) != CORE_OK)
		return er;
	if (PQntuples(res) == 1)
		snprintf(hash, 65, "%s",
		    core_cell_text(res, 0, ACCOUNTS_API_KEY_REVOKE__KEY_HASH));
	PQclear(res);
	return CORE_OK;
}

/* ------------------------------------------------ issue 21: follow kinds */

enum core_err
acc_store_follow_total(struct core_db *db, long long uid, long long *n)
{
	char ub[24];
	const char *p[1] = { ub };

	ID(ub, uid);
	return exec_bigint(db, ACCOUNTS_SQL_FOLLOW_TOTAL, p, 1,
	    ACCOUNTS_FOLLOW_TOTAL__TOTAL, n);
}

/* The parameters of TARGET_ADD and TARGET_FIND for a target. */
static enum core_err
target_exec(struct core_db *db, int stmt, long long uid, enum acc_kind k,
    long long iid, const char *cat, const char *q, long long *id)
{
	char ub[24], ib[24];
	const char *p[5];
	PGresult *res = NULL;
	enum core_err er;

	*id = 0;
	ID(ub, uid);
	ID(ib, iid);
	p[0] = ub;
	p[1] = acc_kinds[k];
	p[2] = k == ACC_KIND_INSTITUTION ? ib : NULL;
	p[3] = cat != NULL ? cat : "";
	p[4] = q != NULL ? q : "";
	if ((er = core_db_exec(db, stmt, p, 5, &res)) != CORE_OK)
		return er;
	if (PQntuples(res) > 0)
		*id = core_cell_bigint(res, 0, ACCOUNTS_TARGET_ADD__ID, 0);
	PQclear(res);
	return CORE_OK;
}

enum core_err
acc_store_target_add(struct core_db *db, long long uid, enum acc_kind k,
    long long iid, const char *cat, const char *q, long long *id)
{
	return target_exec(db, ACCOUNTS_SQL_TARGET_ADD, uid, k, iid, cat, q,
	    id);
}

enum core_err
acc_store_target_find(struct core_db *db, long long uid, enum acc_kind k,
    long long iid, const char *cat, const char *q, long long *id)
{
	return target_exec(db, ACCOUNTS_SQL_TARGET_FIND, uid, k, iid, cat, q,
	    id);
}

enum core_err
acc_store_target_remove(struct core_db *db, long long uid, long long id,
    int *gone)
{
	return delete_of_user(db, ACCOUNTS_SQL_TARGET_REMOVE, uid, id, gone);
}

enum core_err
acc_store_targets(struct core_db *db, const char *base, long long uid,
    json_t **out)
{
	PGresult *res = NULL;
	struct core_buf path = CORE_BUF_INIT;
	const char *kind, *cat, *q, *slug;
	enum core_err er;
	long long iid;
	json_t *a, *o;
	int i;

	*out = NULL;
	if ((er = exec_ids(db, ACCOUNTS_SQL_TARGETS, (const long long[]){ uid },
		 1, &res)) != CORE_OK)
		return er;
	a = json_array();
	for (i = 0; i < PQntuples(res); i++) {
		kind = core_cell_text(res, i, ACCOUNTS_TARGETS__KIND);
		cat = core_cell_text(res, i, ACCOUNTS_TARGETS__CATEGORY);
		q = core_cell_text(res, i, ACCOUNTS_TARGETS__QUERY);
		slug = core_cell_text(res, i, ACCOUNTS_TARGETS__SLUG);
		iid = core_cell_bigint(res, i, ACCOUNTS_TARGETS__INSTITUTION_ID,
		    0);
		core_buf_reset(&path);
		o = json_pack("{s:I,s:s}", "id",
		    (json_int_t)core_cell_bigint(res, i, ACCOUNTS_TARGETS__ID,
			0),
		    "kind", kind);
		if (strcmp(kind, "institution") == 0) {
			core_buf_printf(&path, "/institutions/%lld%s%s", iid,
			    *slug != '\0' ? "-" : "", slug);
			json_object_set_new(o, "institution_id",
			    json_integer(iid));
			json_object_set_new(o, "label",
			    core_cell_jtext(res, i, ACCOUNTS_TARGETS__NAME));
		} else if (strcmp(kind, "category") == 0) {
			core_buf_puts(&path, "/search?category=");
			core_url_encode(&path, cat, 0);
			json_object_set_new(o, "category", core_json_str(cat));
			json_object_set_new(o, "label", core_json_str(cat));
		} else {
			core_buf_puts(&path, "/search?q=");
			core_url_encode(&path, q, 0);
			if (*cat != '\0') {
				core_buf_puts(&path, "&category=");
				core_url_encode(&path, cat, 0);
			}
			json_object_set_new(o, "query", core_json_str(q));
			json_object_set_new(o, "category",
			    *cat != '\0' ? core_json_str(cat) : json_null());
			json_object_set_new(o, "label", core_json_str(q));
		}
		json_object_set_new(o, "url",
		    abs_url(base, core_buf_cstr(&path)));
		json_object_set_new(o, "path",
		    core_json_str(core_buf_cstr(&path)));
		json_array_append_new(a, o);
	}
	PQclear(res);
	core_buf_free(&path);
	*out = a;
	return CORE_OK;
}

enum core_err
acc_store_institution_state(struct core_db *db, long long uid, long long iid,
    char **slug, long long *target)
{
	PGresult *res = NULL;
	enum core_err er;

	*slug = NULL;
	*target = 0;
	if ((er = exec_ids(db, ACCOUNTS_SQL_INSTITUTION_STATE,
		 (const long long[]){ uid, iid }, 2, &res)) != CORE_OK)
		return er;
	if (PQntuples(res) == 0) {
		PQclear(res);
		return CORE_ENOTFOUND;
	}
	*slug = core_xstrdup(
	    core_cell_text(res, 0, ACCOUNTS_INSTITUTION_STATE__SLUG));
	*target =
	    core_cell_bigint(res, 0, ACCOUNTS_INSTITUTION_STATE__TARGET, 0);
	PQclear(res);
	return CORE_OK;
}

enum core_err
acc_store_category_known(struct core_db *db, const char *cat, int *known)
{
	const char *p[1] = { cat };
	PGresult *res = NULL;
	enum core_err er;

	*known = 0;
	if ((er = core_db_exec(db, ACCOUNTS_SQL_CATEGORY_KNOWN, p, 1, &res)) !=
	    CORE_OK)
		return er;
	*known = core_cell_bool(res, 0, ACCOUNTS_CATEGORY_KNOWN__KNOWN, 0);
	PQclear(res);
	return CORE_OK;
}

enum core_err
acc_store_digest_get(struct core_db *db, long long uid, char mode[8])
{
	PGresult *res = NULL;
	enum core_err er;

	snprintf(mode, 8, "off");
	if ((er = exec_ids(db, ACCOUNTS_SQL_DIGEST_STATE,
		 (const long long[]){ uid }, 1, &res)) != CORE_OK)
		return er;
	if (PQntuples(res) > 0)
		snprintf(mode, 8, "%s",
		    core_cell_text(res, 0, ACCOUNTS_DIGEST_STATE__DIGEST));
	PQclear(res);
	return CORE_OK;
}

enum core_err
acc_store_digest_set(struct core_db *db, long long uid, const char *mode)
{
	return exec_uid(db, ACCOUNTS_SQL_DIGEST_SET, uid, mode);
}

enum core_err
acc_store_digest_unsubscribe(struct core_db *db, const char *hash,
    long long *uid)
{
	const char *p[1] = { hash };
	PGresult *res = NULL;
	enum core_err er;

	*uid = 0;
	if ((er = core_db_exec(db, ACCOUNTS_SQL_DIGEST_UNSUBSCRIBE, p, 1,
		 &res)) != CORE_OK)
		return er;
	if (PQntuples(res) > 0)
		*uid = core_cell_bigint(res, 0, ACCOUNTS_DIGEST_UNSUBSCRIBE__ID,
		    0);
	PQclear(res);
	return CORE_OK;
}
