/*
 * err.c -- the error enum's statuses and texts, failures that carry
 * their own status and message (struct core_fail), and HTTP reason
 * phrases.
 */
#include <stddef.h>
#include <stdlib.h>

#include "core.h"

/* Each error's HTTP status and the text its answer says. */
static const struct errinfo {
	int status;
	const char *text;
} errs[CORE_ERR__MAX] = {
	[CORE_OK] = { 200, "ok" },
	[CORE_EINPUT] = { 400, "the request is malformed" },
	[CORE_EFORBIDDEN] = { 403, "this request is not allowed" },
	[CORE_ENOTFOUND] = { 404, "nothing is here" },
	[CORE_EMETHOD] = { 405, "this method is not allowed here" },
	[CORE_ENOTACCEPT] = { 406, "no acceptable representation" },
	[CORE_ETOOLARGE] = { 413, "the request body is too large" },
	[CORE_ELIMIT] = { 429, "too many requests, try again later" },
	[CORE_EDB] = { 503, "the database is unavailable, try again shortly" },
	[CORE_EUPSTREAM] = { 502, "a remote source failed" },
	[CORE_ECACHE] = { 500, "the cache is unavailable" },
	[CORE_ESYS] = { 500, "an internal error occurred" },
	/* Its own status is in a struct core_fail. */
	[CORE_EFAIL] = { 500, "the request failed" },
};

int
core_err_status(enum core_err e)
{
	return (unsigned)e < CORE_ERR__MAX ? errs[e].status : 500;
}

const char *
core_err_str(enum core_err e)
{
	return (unsigned)e < CORE_ERR__MAX ? errs[e].text : "unknown error";
}

enum core_err
core_fail_set(struct core_fail *f, int status, const char *msg)
{
	/* Only an error status: a "failure" answered 200 would be cached
	 * and validated like a page. */
	if (status < 400 || status > 599)
		status = 500;
	free(f->msg);
	f->status = status;
	f->msg = core_xstrdup(msg != NULL ? msg : core_status_reason(status));
	return CORE_EFAIL;
}

int
core_fail_answer(const struct core_fail *f, enum core_err er, const char **msg)
{
	if (er != CORE_EFAIL) {
		*msg = core_err_str(er);
		return core_err_status(er);
	}
	/* CORE_EFAIL with nothing recorded is our bug: answer it as one. */
	if (f == NULL || f->msg == NULL) {
		*msg = core_err_str(CORE_ESYS);
		return 500;
	}
	*msg = f->msg;
	return f->status;
}

void
core_fail_free(struct core_fail *f)
{
	if (f == NULL)
		return;
	free(f->msg);
	f->msg = NULL;
	f->status = 0;
}

const char *
core_status_reason(int status)
{
	switch (status) {
	/* clang-format off */
	case 200: return "OK";
	case 201: return "Created";
	case 204: return "No Content";
	case 300: return "Multiple Choices";
	case 301: return "Moved Permanently";
	case 302: return "Found";
	case 303: return "See Other";
	case 304: return "Not Modified";
	case 307: return "Temporary Redirect";
	case 308: return "Permanent Redirect";
	case 400: return "Bad Request";
	case 401: return "Unauthorized";
	case 403: return "Forbidden";
	case 404: return "Not Found";
	case 405: return "Method Not Allowed";
	case 406: return "Not Acceptable";
	case 410: return "Gone";
	case 413: return "Content Too Large";
	case 414: return "URI Too Long";
	case 415: return "Unsupported Media Type";
	case 429: return "Too Many Requests";
	case 500: return "Internal Server Error";
	case 502: return "Bad Gateway";
	case 503: return "Service Unavailable";
	default: return "";
		/* clang-format on */
	}
}
