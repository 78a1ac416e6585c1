/*
 * test_arxiv.c -- core_arxiv_parse().
 */
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "t.h"

/* Parses in, which must give id, version, old_style and consumed. */
#define OK(in, wid, wver, wold, wcons)                                         \
	do {                                                                   \
		struct core_arxiv_id t_id;                                     \
		size_t a_c = 999;                                              \
		T_EQ(core_arxiv_parse((in), strlen(in), &t_id, &a_c), CORE_OK, \
		    "parse " in);                                              \
		T_STREQ(t_id.id, (wid), "id of " in);                          \
		T_EQ(t_id.version, (wver), "version of " in);                  \
		T_EQ(t_id.old_style, (wold), "style of " in);                  \
		T_EQ(a_c, (wcons), "consumed of " in);                         \
	} while (0)
#define BAD(in)                                                                \
	do {                                                                   \
		struct core_arxiv_id t_id;                                     \
		size_t a_c = 999;                                              \
		T_EQ(core_arxiv_parse((in), strlen(in), &t_id, &a_c),          \
		    CORE_EINPUT, "reject " in);                                \
		T_EQ(a_c, 0, "nothing consumed by " in);                       \
		T_STREQ(t_id.id, "", "no id from " in);                        \
	} while (0)

int
main(void)
{
	struct core_arxiv_id id;
	struct core_buf b = CORE_BUF_INIT;
	size_t c, i;
	char *heap;

	/* New style. */
	OK("2512.20345", "2512.20345", 0, 0, 10);
	OK("2512.20345v3", "2512.20345", 3, 0, 12);
	OK("2512.20345v999", "2512.20345", 999, 0, 14);
	OK("0704.0001", "0704.0001", 0, 0, 9);
	OK("0704.0001v1", "0704.0001", 1, 0, 11);
	OK("1412.9999", "1412.9999", 0, 0, 9);
	OK("1501.00001", "1501.00001", 0, 0, 10);
	OK("2001.12345v12", "2001.12345", 12, 0, 13);
	OK("arXiv:2512.20345", "2512.20345", 0, 0, 16);
	OK("arxiv:2512.20345v2", "2512.20345", 2, 0, 18);
	OK("ARXIV:0704.0001", "0704.0001", 0, 0, 15);
	/* Trailing text is left to the caller. */
	OK("2512.20345-some-slug", "2512.20345", 0, 0, 10);
	OK("2512.20345v3-some-slug", "2512.20345", 3, 0, 12);
	OK("2512.20345/", "2512.20345", 0, 0, 10);
	OK("2512.20345v", "2512.20345", 0, 0, 10);
	OK("2512.20345vx", "2512.20345", 0, 0, 10);
	OK("2512.20345.pdf", "2512.20345", 0, 0, 10);

	/* Before 1501 numbers have 4 digits, from 1501 on 5: any other
	 * count is no id at all, not a shorter id and a trailing digit. */
	BAD("1412.12345");
	BAD("1501.0001");
	BAD("2512.2034");
	BAD("2512.203456");
	BAD("0704.00001");
	/* Months and the start of the scheme (April 2007). */
	BAD("2513.00001");
	BAD("2500.00001");
	BAD("0703.0001");
	BAD("0001.0001");
	BAD("9901.0001");
	BAD("9108.0001");
	/* Numbers and versions. */
	BAD("2512.00000");
	BAD("0704.0000");
	BAD("2512.20345v0");
	BAD("2512.20345v01");
	BAD("2512.20345v1000");
	/* Not ids. */
	BAD("");
	BAD("abc");
	BAD("arXiv:");
	BAD("arXiv:abc");
	BAD("arXiv 2512.20345");
	BAD(" 2512.20345");
	BAD("2512-20345");
	BAD("2512.");
	BAD("251.20345");
	BAD("25122.0345");
	BAD("2512.2o345");

	/* Old style. */
	OK("astro-ph/9901001", "astro-ph/9901001", 0, 1, 16);
	OK("hep-th/9108001", "hep-th/9108001", 0, 1, 14);
	OK("math/0703999v4", "math/0703999", 4, 1, 14);
	OK("math.GT/0309136v2", "math.GT/0309136", 2, 1, 17);
	OK("cs.AI/0101001", "cs.AI/0101001", 0, 1, 13);
	OK("cond-mat.mes-hall/0102536", "cond-mat.mes-hall/0102536", 0, 1, 25);
	OK("q-bio.NC/0501001", "q-bio.NC/0501001", 0, 1, 16);
	OK("Astro-PH/9901001", "astro-ph/9901001", 0, 1, 16);
	OK("MATH.GT/0309136", "math.GT/0309136", 0, 1, 15);
	OK("arXiv:hep-th/9901001v1", "hep-th/9901001", 1, 1, 22);
	OK("solv-int/9901001-title", "solv-int/9901001", 0, 1, 16);
	OK("supr-con/9601001", "supr-con/9601001", 0, 1, 16);

	BAD("foo-ph/9901001");
	BAD("astro/9901001");
	BAD("astro-ph9901001");
	BAD("astro-ph/990100");
	BAD("astro-ph/99010011");
	BAD("astro-ph/9913001");
	BAD("astro-ph/9900001");
	BAD("astro-ph/9901000");
	BAD("hep-th/9107001");
	BAD("math/0704001");
	BAD("math/1201001");
	BAD("math.G/0309136");
	BAD("math.Gt/0309136");
	BAD("math.G1/0309136");
	BAD("math./0309136");
	BAD("math.GT-/0309136");
	BAD("cond-mat.mes--hall/0102536");
	BAD("math.ABCDEFGHIJKLMNOPQ/0309136");
	BAD("math.GT/0309136v0");

	/* NULL out-pointers and NULL input. */
	T_EQ(core_arxiv_parse("2512.20345", 10, &id, NULL), CORE_OK,
	    "consumed may be NULL");
	T_EQ(core_arxiv_parse(NULL, 0, &id, &c), CORE_EINPUT, "NULL input");

	/* n is respected: the bytes after it are never read. */
	heap = malloc(10);
	memcpy(heap, "2512.20345", 10);
	T_EQ(core_arxiv_parse(heap, 10, &id, &c), CORE_OK, "exact buffer");
	T_EQ(c, 10, "exact buffer consumed");
	T_EQ(core_arxiv_parse(heap, 9, &id, &c), CORE_EINPUT,
	    "cut to 4 digits after 1501");
	T_EQ(core_arxiv_parse(heap, 4, &id, &c), CORE_EINPUT, "cut at YYMM");
	free(heap);
	heap = malloc(12);
	memcpy(heap, "2512.20345v3", 12);
	T_EQ(core_arxiv_parse(heap, 11, &id, &c), CORE_OK, "cut at 'v'");
	T_EQ(c, 10, "'v' at the end is left");
	T_EQ(id.version, 0, "no version");
	free(heap);
	heap = malloc(14);
	memcpy(heap, "math.GT/030913", 14);
	T_EQ(core_arxiv_parse(heap, 14, &id, &c), CORE_EINPUT,
	    "old style cut short");
	free(heap);
	T_EQ(core_arxiv_parse("arXiv:2512.20345", 5, &id, &c), CORE_EINPUT,
	    "prefix cut short");

	/* Very long inputs. */
	for (i = 0; i < 100000; i++)
		core_buf_putc(&b, '1');
	T_EQ(core_arxiv_parse(b.ptr, b.len, &id, &c), CORE_EINPUT,
	    "100000 digits");
	core_buf_reset(&b);
	core_buf_puts(&b, "2512.20345v1-");
	for (i = 0; i < 100000; i++)
		core_buf_putc(&b, 'x');
	T_EQ(core_arxiv_parse(b.ptr, b.len, &id, &c), CORE_OK,
	    "long slug after id");
	T_EQ(c, 12, "long slug consumed");
	core_buf_reset(&b);
	core_buf_puts(&b, "cond-mat");
	for (i = 0; i < 100000; i++)
		core_buf_putc(&b, '-');
	T_EQ(core_arxiv_parse(b.ptr, b.len, &id, &c), CORE_EINPUT,
	    "long archive name");
	core_buf_free(&b);

	return T_DONE();
}
