/*
 * apikey.c -- API keys on /account: POST /account/keys (a new named key,
 * its secret shown once) and POST /account/keys/revoke.  A key is sent
 * as "Authorization: Bearer KEY" and gets the key's read limit instead
 * of its address's (modules/core/limit.c checks it in every pool).
 *
 * Like the feed token, only the key's hash is stored
 * (0027_api_keys.sql), and the secret never reaches a log.  Revoking
 * deletes the hash's entry in Redis too, so that no pool keeps accepting
 * the key for the minute it remembers a key it checked.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hiredis.h>
#include <sodium.h>

#include "core.h"
#include "accounts.h"

#define KEY_NAME_MAX 100

enum core_err
acc_api_keys_model(struct core_req *req, long long uid, const char *new_key,
    json_t *m)
{
	struct core_ctx *ctx = core_req_ctx(req);
	struct core_limits l;
	redisReply *r = NULL;
	json_t *keys = NULL, *k, *o;
	enum core_err er;
	size_t i;

	if ((er = acc_store_api_keys(ctx->db, uid, &keys)) != CORE_OK)
		return er;
	/* Requests made with each key (core_req_limit counts them). */
	json_array_foreach(keys, i, k)
	{
		long long uses = 0;

		if (core_redis_cmd(ctx->redis, &r, "GET weft:keyuse:%lld",
			(long long)core_json_int(k, "id", 0)) == CORE_OK) {
			if (r->type == REDIS_REPLY_STRING)
				uses = strtoll(r->str, NULL, 10);
			freeReplyObject(r);
			r = NULL;
		}
		json_object_set_new(k, "requests", json_integer(uses));
	}
	core_limits(ctx->conf, &l);
	o = json_pack("{s:o,s:o,s:o,s:{s:I,s:I}}", "keys", keys, "create",
	    core_json_str("/account/keys"), "revoke",
	    core_json_str("/account/keys/revoke"), "limit", "requests",
	    (json_int_t)l.key_limit, "window_seconds",
	    (json_int_t)l.key_window);
	if (o == NULL)
		return CORE_ESYS;
	if (new_key != NULL)
		json_object_set_new(o, "new_key", json_string(new_key));
	json_object_set_new(m, "api_keys", o);
	return CORE_OK;
}

/* 1 for a name of 1 to 100 bytes of UTF-8 without control characters. */
static int
name_ok(const char *s)
{
	size_t n = s != NULL ? strlen(s) : 0;
	const unsigned char *p;

	if (n == 0 || n > KEY_NAME_MAX || !core_utf8_valid(s, n))
		return 0;
	for (p = (const unsigned char *)s; *p != '\0'; p++)
		if (*p < 0x20 || *p == 0x7f)
			return 0;
	return 1;
}

enum core_err
acc_api_key_post(struct core_req *req)
{
	struct core_ctx *ctx = core_req_ctx(req);
	const struct core_params *form = NULL;
	char tok[ACC_TOKEN_LEN + 1], secret[ACC_TOKEN_LEN + 8], hash[65];
	struct acc_session s;
	const char *name;
	long long id = 0;
	enum core_err er;

	if (acc_post_session(req, &form, &s, &er) != 0)
		return er;
	name = core_params_get(form, "name");
	if (!name_ok(name))
		return acc_account_page(req, &s, 400,
		    "Name the key (1 to 100 characters), so that you know "
		    "which one to revoke.");
	acc_token_new(tok);
	snprintf(secret, sizeof(secret), "weft_%s", tok);
	sodium_memzero(tok, sizeof(tok));
	core_key_hash(secret, hash);
	if ((er = acc_store_api_key_add(ctx->db, s.uid, name, hash, &id)) !=
	    CORE_OK)
		goto out;
	if (id == 0) {
		er = acc_account_page(req, &s, 400,
		    "You have 20 API keys already: revoke one first.");
		goto out;
	}
	core_log(CORE_LOG_INFO, "apikey", "user %lld made API key %lld", s.uid,
	    id);
	er = acc_account_page_key(req, &s, secret);
out:
	sodium_memzero(secret, sizeof(secret));
	return er;
}

enum core_err
acc_api_key_revoke_post(struct core_req *req)
{
	struct core_ctx *ctx = core_req_ctx(req);
	const struct core_params *form = NULL;
	struct acc_session s;
	redisReply *r = NULL;
	const char *id;
	char hash[65];
	long long kid;
	enum core_err er;

	if (acc_post_session(req, &form, &s, &er) != 0)
		return er;
	id = core_params_get(form, "id");
	if (id == NULL || acc_parse_id(id, strlen(id), &kid) != 0)
		return acc_account_page(req, &s, 400,
		    "Which key? The form names none.");
	if ((er = acc_store_api_key_revoke(ctx->db, s.uid, kid, hash)) !=
	    CORE_OK)
		return er;
	if (hash[0] != '\0') {
		/* At once: no pool may go on trusting its minute's memory. */
		if (core_redis_cmd(ctx->redis, &r, "DEL weft:apikey:%s",
			hash) == CORE_OK)
			freeReplyObject(r);
		core_log(CORE_LOG_INFO, "apikey",
		    "user %lld revoked API key %lld", s.uid, kid);
	}
	return acc_see_other(req,
	    hash[0] != '\0' ? "/account?done=key" : "/account");
}
