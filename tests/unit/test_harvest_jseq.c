/*
 * test_harvest_jseq.c -- the splitter of JSON dumps (jseq.c) on the
 * shapes ROR publishes (array, one record, JSON lines) fed whole and one
 * byte at a time, on the ways a dump goes wrong, and harvest_ror_parse()
 * keeping status and relationships.
 */
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "../../modules/harvest/harvest.h"
#include "t.h"
#include "harvest_data.h"

struct got {
	int n;
	struct core_buf all; /* the records, one a line */
};

static int
rec(void *arg, const char *s, size_t len)
{
	struct got *g = arg;

	g->n++;
	core_buf_put(&g->all, s, len);
	core_buf_putc(&g->all, '\n');
	return 0;
}

/* Splits s (in chunks of step bytes, 0: whole); the records or -1. */
static int
split(const char *s, size_t n, size_t step, struct got *g, char *why)
{
	struct harvest_jseq j;
	size_t i, k;
	int rc = 0;

	g->n = 0;
	core_buf_reset(&g->all);
	harvest_jseq_open(&j, 1 << 20);
	for (i = 0; i < n && rc == 0; i += k) {
		k = step == 0 || n - i < step ? n - i : step;
		rc = harvest_jseq_push(&j, s + i, k, rec, g, why);
	}
	if (rc == 0)
		rc = harvest_jseq_end(&j, why);
	harvest_jseq_close(&j);
	return rc == 0 ? g->n : -1;
}

#define SPLIT(s, step, g, why) split((s), strlen(s), (step), (g), (why))

int
main(void)
{
	struct got g = { 0, CORE_BUF_INIT };
	struct core_buf b = CORE_BUF_INIT, arr = CORE_BUF_INIT;
	struct harvest_inst in;
	char why[HARVEST_JSEQ_WHY];
	const char *w, *p, *e;
	json_t *o;
	int n;

	/* The shapes, whole and byte by byte. */
	T_EQ(SPLIT("[{\"a\":1},{\"b\":[2,{}]}]", 0, &g, why), 2, "array");
	T_STREQ(core_buf_cstr(&g.all), "{\"a\":1}\n{\"b\":[2,{}]}\n",
	    "array: the records' bytes");
	T_EQ(SPLIT("[{\"a\":1},{\"b\":[2,{}]}]", 1, &g, why), 2,
	    "array, byte by byte");
	T_EQ(SPLIT("\xef\xbb\xbf [\n {\"a\": \"}]\\\"\"}\n]\n", 1, &g, why), 1,
	    "BOM, white space, braces and escapes inside a string");
	T_EQ(SPLIT("[]", 0, &g, why), 0, "empty array");
	T_EQ(SPLIT("{\"id\":1,\n \"x\":{}}\n", 0, &g, why), 1, "one object");
	T_EQ(SPLIT("{\"a\":1}\n{\"a\":2}\r\n\n{\"a\":3}", 2, &g, why), 3,
	    "JSON lines");

	/* What goes wrong. */
	T_EQ(SPLIT("", 0, &g, why), -1, "empty input");
	T_STREQ(why, "empty input", "empty input: why");
	T_EQ(SPLIT("[{\"a\":1},{\"b\":", 0, &g, why), -1, "truncated record");
	T_STREQ(why, "truncated: the input ends inside record 2",
	    "truncated record: why");
	T_EQ(SPLIT("[{\"a\":1},", 0, &g, why), -1, "truncated array");
	T_CONTAINS(why, "not closed after 1 records", "truncated array: why");
	T_EQ(SPLIT("[{\"a\":1},2]", 0, &g, why), -1, "a number in the array");
	T_CONTAINS(why, "not an object ('2' at byte 9)", "... says where");
	T_EQ(SPLIT("[{\"a\":1}]x", 0, &g, why), -1, "data after ]");
	T_EQ(SPLIT("[{\"a\":1} {\"a\":2}]", 0, &g, why), -1, "missing comma");
	T_EQ(SPLIT("[,{\"a\":1}]", 0, &g, why), -1, "leading comma");
	T_EQ(SPLIT("[{\"a\":1},]", 0, &g, why), -1, "trailing comma");
	T_EQ(SPLIT("id,name\n1,x\n", 0, &g, why), -1, "CSV");
	T_CONTAINS(why, "not a JSON array or object", "CSV: why");
	T_EQ(split("\xff\xfe[\0", 4, 0, &g, why), -1, "UTF-16");
	T_CONTAINS(why, "UTF-16", "UTF-16: why");
	T_EQ(SPLIT("\x1f\x8b\x08", 0, &g, why), -1, "gzip inside gzip");
	T_EQ(SPLIT("{\"a\":1} 7", 0, &g, why), -1, "a number after a record");
	{
		struct harvest_jseq j;
		char big[64];

		memset(big, ' ', sizeof(big));
		big[0] = '{';
		harvest_jseq_open(&j, 16);
		T_EQ(harvest_jseq_push(&j, big, sizeof(big), rec, &g, why), -1,
		    "a record over the limit");
		T_STREQ(why, "record 1 is longer than 16 bytes",
		    "over the limit: why");
		T_EQ(harvest_jseq_push(&j, "}", 1, rec, &g, why), -1,
		    "after an error every call fails");
		harvest_jseq_close(&j);
	}

	/* The recorded dump lines, as lines and as one array. */
	T_OK(data_read("ror/dump_lines.jsonl", &b) == 0, "read dump lines");
	n = split(b.ptr, b.len, 0, &g, why);
	T_EQ(n, 41, "41 records from the lines");
	core_buf_puts(&arr, "[\n");
	for (p = b.ptr;
	     (e = memchr(p, '\n', b.len - (size_t)(p - b.ptr))) != NULL;
	     p = e + 1) {
		if (p != b.ptr)
			core_buf_puts(&arr, ",\n");
		core_buf_put(&arr, p, (size_t)(e - p));
	}
	core_buf_puts(&arr, "\n]\n");
	T_EQ(split(arr.ptr, arr.len, 4093, &g, why), 41,
	    "the same 41 from one array read in 4093-byte chunks");

	/* A record: status and relationships kept, ids without the URL. */
	T_OK(data_read("ror/dump_lines.jsonl", &b) == 0, "read again");
	p = strstr(b.ptr, "\"type\":\"successor\"");
	T_OK(p != NULL, "the fixture has a successor");
	while (p > b.ptr && p[-1] != '\n')
		p--;
	e = strchr(p, '\n');
	o = json_loadb(p, (size_t)(e - p), 0, NULL);
	memset(&in, 0, sizeof(in));
	T_EQ(harvest_ror_parse(o, &in, &w), CORE_OK,
	    "parse a successor's record");
	T_CONTAINS(in.relationships, "\"type\":\"successor\"",
	    "successor kept");
	T_LACKS(in.relationships, "ror.org", "ids without the URL");
	T_OK(in.status != NULL, "status kept");
	harvest_inst_free(&in);
	json_object_set_new(o, "relationships",
	    json_pack("[{s:s}]", "type", "successor"));
	T_EQ(harvest_ror_parse(o, &in, &w), CORE_EINPUT,
	    "a relationship without an id is refused");
	json_decref(o);

	core_buf_free(&b);
	core_buf_free(&arr);
	core_buf_free(&g.all);
	return T_DONE();
}
