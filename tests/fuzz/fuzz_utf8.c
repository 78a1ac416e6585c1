/*
 * fuzz_utf8.c -- core_utf8_valid() and core_utf8_clean(): the cleaned
 * text must be valid, free of the dropped controls, and left alone when
 * it was valid and clean already.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* 1 if s[0..n) holds a control core_utf8_clean() must drop. */
static int
has_control(const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i;

	for (i = 0; i < n; i++) {
		if ((p[i] < 0x20 && p[i] != '\t' && p[i] != '\n' &&
			p[i] != '\r') ||
		    p[i] == 0x7f)
			return 1;
		/* C1 controls are U+0080..U+009F: 0xc2 0x80..0x9f. */
		if (p[i] == 0xc2 && i + 1 < n && p[i + 1] >= 0x80 &&
		    p[i + 1] <= 0x9f)
			return 1;
	}
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct core_buf b = CORE_BUF_INIT;
	const char *s = (const char *)data;
	int valid;

	valid = core_utf8_valid(s, size);
	core_utf8_clean(&b, s, size);
	if (!core_utf8_valid(b.ptr, b.len))
		abort();
	if (has_control(b.ptr, b.len))
		abort();
	/* Valid input without controls passes unchanged. */
	if (valid && !has_control(s, size) &&
	    (b.len != size || (size > 0 && memcmp(b.ptr, s, size) != 0)))
		abort();
	/* Cleaning is idempotent. */
	{
		struct core_buf c = CORE_BUF_INIT;

		core_utf8_clean(&c, b.ptr, b.len);
		if (c.len != b.len ||
		    (b.len > 0 && memcmp(c.ptr, b.ptr, b.len) != 0))
			abort();
		core_buf_free(&c);
	}
	core_buf_free(&b);
	return 0;
}
