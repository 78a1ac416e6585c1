/*
 * test_chat.c -- the chat module's pure parts: the safe markdown of a
 * model's answer (no link, image, HTML or reference definition can come
 * through cmark) and the sentence splitter of the extracts.
 */
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "../modules/chat/chat.h"
#include "t.h"

static char *
html_of(const char *answer)
{
	struct core_buf md = CORE_BUF_INIT, out = CORE_BUF_INIT;
	struct core_html h;

	chat_md_safe(&md, answer);
	core_html_open(&h, core_buf_sink(&out));
	core_html_md(&h, core_buf_cstr(&md));
	(void)core_html_close(&h);
	core_buf_free(&md);
	return core_buf_steal(&out);
}

static int nsent;
static char sents[8][200];

static void
on_sentence(void *arg, const char *s, size_t n)
{
	(void)arg;
	if (nsent < 8 && n < 200) {
		memcpy(sents[nsent], s, n);
		sents[nsent][n] = '\0';
	}
	nsent++;
}

int
main(void)
{
	char *h;

	h = html_of("See [this](https://evil.example) and ![x](http://e/x.png)"
		    " <script>alert(1)</script> <https://evil.example> "
		    "https://arxiv.org/abs/2401.1 x@evil.example "
		    "[1]\n\n[1]: https://evil.example\n\n**bold** [2].");
	T_LACKS(h, "href=\"https://evil", "no link but to arXiv or DOI");
	T_LACKS(h, "mailto:", "no mail link");
	T_CONTAINS(h, "href=\"https://arxiv.org/abs/2401.1\"",
	    "arXiv links kept");
	T_LACKS(h, "<img", "no image");
	T_LACKS(h, "<script", "no raw HTML");
	T_CONTAINS(h, "<strong>bold</strong>", "emphasis kept");
	T_CONTAINS(h, "[2].", "citations kept as text");
	free(h);
	h = html_of("a & b `code` \\[1\\]");
	T_CONTAINS(h, "a &amp; b", "ampersand escaped once");
	free(h);

	chat_sentences("We study graphs. Results (e.g. on Cora) improve! Why? "
		       "Done",
	    on_sentence, NULL);
	T_EQ(nsent, 4, "four sentences");
	T_STREQ(sents[0], "We study graphs.", "first");
	T_STREQ(sents[1], "Results (e.g. on Cora) improve!",
	    "e.g. kept inside");
	T_STREQ(sents[3], "Done", "last without a stop");
	T_STREQ(chat_scope_names[CHAT_SCOPE_FOLLOWED], "followed", "scopes");
	return T_DONE();
}
