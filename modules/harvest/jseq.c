/*
 * jseq.c -- the records of a JSON dump as its publisher writes it: one
 * JSON array of objects (ROR's data dump), a single object (one
 * record, or an API answer that wraps them), or objects one after
 * another (JSON lines).  The bytes arrive in chunks of any size (from
 * gzread()), so a dump of any length needs memory for one record only.
 *
 * This is a splitter, not a JSON parser: it tracks strings, escapes and
 * nesting to find where each top-level object ends and hands its bytes
 * to the caller, who parses them (json_loadb()).  What it refuses is the
 * shape around the records: something that is not an object where a
 * record belongs, data after the array, a record longer than the limit,
 * and (at the end) input cut inside a record or before the array closed.
 */
#include <stdio.h>
#include <string.h>

#include "core.h"
#include "harvest.h"

enum { ST_START, ST_ELEM, ST_AFTER, ST_OBJECTS, ST_REC, ST_DONE, ST_ERR };

void
harvest_jseq_open(struct harvest_jseq *j, size_t max_rec)
{
	memset(j, 0, sizeof(*j));
	j->rec = (struct core_buf)CORE_BUF_INIT;
	j->max_rec = max_rec;
	j->state = ST_START;
}

void
harvest_jseq_close(struct harvest_jseq *j)
{
	core_buf_free(&j->rec);
}

static int
is_ws(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static int
fail(struct harvest_jseq *j, char why[HARVEST_JSEQ_WHY], const char *msg,
    char c)
{
	if (c >= 0x20 && c < 0x7f)
		snprintf(why, HARVEST_JSEQ_WHY, "%s ('%c' at byte %lld)", msg,
		    c, j->off);
	else
		snprintf(why, HARVEST_JSEQ_WHY, "%s (byte 0x%02x at byte %lld)",
		    msg, (unsigned char)c, j->off);
	j->state = ST_ERR;
	return -1;
}

/* The start of the input: a UTF-8 byte order mark is skipped. */
static int
start(struct harvest_jseq *j, char c, char why[HARVEST_JSEQ_WHY])
{
	if (j->off < 3 && c == "\xef\xbb\xbf"[j->off] && j->bom == j->off) {
		j->bom++;
		return 0;
	}
	if (j->bom != 0 && j->bom != 3)
		return fail(j, why, "not JSON: a broken byte order mark", c);
	if (is_ws(c))
		return 0;
	if (c == '[') {
		j->array = 1;
		j->state = ST_ELEM;
		return 0;
	}
	if (c == '{') {
		j->state = ST_OBJECTS;
		return 1; /* the caller starts the record with this byte */
	}
	if ((unsigned char)c == 0xff || (unsigned char)c == 0xfe || c == '\0')
		return fail(j, why, "not UTF-8 JSON (UTF-16 or binary?)", c);
	if ((unsigned char)c == 0x1f)
		return fail(j, why, "still compressed (gzip inside gzip?)", c);
	return fail(j, why, "not a JSON array or object", c);
}

int
harvest_jseq_push(struct harvest_jseq *j, const char *p, size_t n,
    int (*rec)(void *arg, const char *s, size_t len), void *arg,
    char why[HARVEST_JSEQ_WHY])
{
	size_t i;
	char c;
	int r;

	for (i = 0; i < n; i++, j->off++) {
		c = p[i];
		switch (j->state) {
		case ST_ERR:
			return -1;
		case ST_START:
			if ((r = start(j, c, why)) <= 0) {
				if (r < 0)
					return -1;
				continue;
			}
			break; /* '{': begin the record below */
		case ST_ELEM:
			if (is_ws(c))
				continue;
			if (c == ']' && j->nrec == 0 && !j->comma) {
				j->state = ST_DONE;
				continue;
			}
			if (c != '{')
				return fail(j, why,
				    "an array element that is not an object",
				    c);
			break;
		case ST_AFTER:
			if (is_ws(c))
				continue;
			if (c == ',') {
				j->comma = 1;
				j->state = ST_ELEM;
				continue;
			}
			if (c == ']') {
				j->state = ST_DONE;
				continue;
			}
			return fail(j, why, "no ',' or ']' after a record", c);
		case ST_OBJECTS:
			if (is_ws(c))
				continue;
			if (c != '{')
				return fail(j, why,
				    "something other than an object "
				    "after a record",
				    c);
			break;
		case ST_DONE:
			if (is_ws(c))
				continue;
			return fail(j, why, "data after the closing ']'", c);
		case ST_REC:
			if (j->rec.len >= j->max_rec) {
				snprintf(why, HARVEST_JSEQ_WHY,
				    "record %ld is longer than %zu bytes",
				    j->nrec + 1, j->max_rec);
				j->state = ST_ERR;
				return -1;
			}
			core_buf_putc(&j->rec, c);
			if (j->in_str) {
				if (j->esc)
					j->esc = 0;
				else if (c == '\\')
					j->esc = 1;
				else if (c == '"')
					j->in_str = 0;
				continue;
			}
			if (c == '"')
				j->in_str = 1;
			else if (c == '{' || c == '[')
				j->depth++;
			else if (c == '}' || c == ']') {
				if (--j->depth > 0)
					continue;
				j->nrec++;
				j->state = j->array ? ST_AFTER : ST_OBJECTS;
				r = rec(arg, j->rec.ptr, j->rec.len);
				core_buf_reset(&j->rec);
				if (r != 0) {
					snprintf(why, HARVEST_JSEQ_WHY,
					    "stopped at record %ld", j->nrec);
					j->state = ST_ERR;
					return -1;
				}
			}
			continue;
		}
		/* c is the '{' that opens a record. */
		core_buf_reset(&j->rec);
		core_buf_putc(&j->rec, c);
		j->depth = 1;
		j->in_str = j->esc = 0;
		j->state = ST_REC;
	}
	return 0;
}

int
harvest_jseq_end(struct harvest_jseq *j, char why[HARVEST_JSEQ_WHY])
{
	switch (j->state) {
	case ST_ERR:
		return -1;
	case ST_START:
		snprintf(why, HARVEST_JSEQ_WHY, "empty input");
		return -1;
	case ST_REC:
		snprintf(why, HARVEST_JSEQ_WHY,
		    "truncated: the input ends inside record %ld", j->nrec + 1);
		return -1;
	case ST_ELEM:
	case ST_AFTER:
		snprintf(why, HARVEST_JSEQ_WHY,
		    "truncated: the array is not closed after %ld records",
		    j->nrec);
		return -1;
	default:
		return 0;
	}
}
