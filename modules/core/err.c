/*
 * err.c -- the error enum's statuses and texts, and HTTP reason phrases.
 */
#include <stddef.h>

#include "core.h"

static const int statuses[CORE_ERR__MAX] = {
	[CORE_OK] = 200,
	[CORE_EINPUT] = 400,
	[CORE_EFORBIDDEN] = 403,
	[CORE_ENOTFOUND] = 404,
	[CORE_EMETHOD] = 405,
	[CORE_ENOTACCEPT] = 406,
	[CORE_ETOOLARGE] = 413,
	[CORE_ELIMIT] = 429,
	[CORE_EDB] = 503,
	[CORE_EUPSTREAM] = 502,
	[CORE_ECACHE] = 500,
	[CORE_ESYS] = 500,
};

static const char *const texts[CORE_ERR__MAX] = {
	[CORE_OK] = "ok",
	[CORE_EINPUT] = "the request is malformed",
	[CORE_EFORBIDDEN] = "this request is not allowed",
	[CORE_ENOTFOUND] = "nothing is here",
	[CORE_EMETHOD] = "this method is not allowed here",
	[CORE_ENOTACCEPT] = "no acceptable representation",
	[CORE_ETOOLARGE] = "the request body is too large",
	[CORE_ELIMIT] = "too many requests, try again later",
	[CORE_EDB] = "the database is unavailable, try again shortly",
	[CORE_EUPSTREAM] = "a remote source failed",
	[CORE_ECACHE] = "the cache is unavailable",
	[CORE_ESYS] = "an internal error occurred",
};

int
core_err_status(enum core_err e)
{
	return (unsigned)e < CORE_ERR__MAX ? statuses[e] : 500;
}

const char *
core_err_str(enum core_err e)
{
	return (unsigned)e < CORE_ERR__MAX ? texts[e] : "unknown error";
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
