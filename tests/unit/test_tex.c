/*
 * test_tex.c -- TeX in titles and abstracts: plain text, markdown and
 * MathML.  Most cases are taken from the bundled arXiv data
 * (sql/data/arxiv_cs_se_dc_lg_2025_2026.jsonl.gz).
 */
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "t.h"

static char *last;

/* core_tex_plain(s, keep), freed on the next call. */
static const char *
plain(const char *s, int keep)
{
	free(last);
	last = core_tex_plain(s, keep);
	return last;
}

/* core_html_tex(s) into a fresh buffer; "ERR" on a writer error. */
static const char *
html(const char *s)
{
	static struct core_buf b = CORE_BUF_INIT;
	struct core_html h;

	core_buf_reset(&b);
	core_html_open(&h, core_buf_sink(&b));
	core_html_tex(&h, s);
	if (core_html_close(&h) != CORE_OK)
		return "ERR";
	return core_buf_cstr(&b);
}

static const char *
md(const char *s)
{
	static struct core_buf b = CORE_BUF_INIT;

	core_buf_reset(&b);
	core_md_tex(&b, s);
	return core_buf_cstr(&b);
}

static void
accents_and_escapes(void)
{
	/* From the issue and the data. */
	T_STREQ(plain("we show that 45.1\\% of", 0), "we show that 45.1% of",
	    "\\% unescaped");
	T_STREQ(plain("we propose Mj\\\"olnir, a novel", 0),
	    "we propose Mjölnir, a novel", "\\\"o composed");
	T_STREQ(plain("a Kac-Murdock-Szeg\\\"{o} (KMS) matrix", 0),
	    "a Kac-Murdock-Szegö (KMS) matrix", "\\\"{o} composed");
	T_STREQ(plain("Fr\\'echet Inception Distance", 0),
	    "Fréchet Inception Distance", "\\'e");
	T_STREQ(plain("the d\\'ej\\`a vu method", 0), "the déjà vu method",
	    "\\` grave");
	T_STREQ(plain("Do\\~nana National Park", 0), "Doñana National Park",
	    "\\~n");
	T_STREQ(plain("\\c{c}a \\v{s} \\v s \\H{o} \\k{a} \\r{u} \\={a}", 0),
	    "ça š š ő ą ů ā", "letter accents, with and without braces");
	T_STREQ(plain("{\\\"o} \\'{\\i} \\ss\\ \\o{} \\aa{} \\AE \\l", 0),
	    "ö í ß ø å Æł", "named letters, dotless i, the space eaten");
	T_STREQ(plain("R\\&D, a\\_b, \\$5, \\#1, \\{x\\}", 0),
	    "R&D, a_b, $5, #1, {x}", "escapes");
	T_STREQ(plain("360{\\deg} field; 20\\,ms", 0),
	    "360° field; 20\xe2\x80\x89ms", "{\\deg} and \\, from the data");
	/* NFC composes the accent with its base, and only that. */
	T_STREQ(plain("\\\"u and \xe2\x84\xa6", 0), "ü and \xe2\x84\xa6",
	    "text around accents is not normalised");
}

static void
dashes_quotes_ties(void)
{
	T_STREQ(plain("channel coding -- as an alternative", 0),
	    "channel coding – as an alternative", "-- en dash");
	T_STREQ(plain("13 ms--a tenfold speedup", 0), "13 ms–a tenfold speedup",
	    "-- between words");
	T_STREQ(plain("yes---no", 0), "yes—no", "--- em dash");
	T_STREQ(plain("run it with --help", 0), "run it with --help",
	    "a command-line flag keeps its dashes");
	T_STREQ(plain("``quoted''", 0), "“quoted”", "TeX quotes");
	T_STREQ(plain("Large language models~(LLMs) and 1~GB", 0),
	    "Large language models\xc2\xa0(LLMs) and 1\xc2\xa0GB", "ties");
	T_STREQ(plain("only a ~2% drop; 94% ~ 96%; https://a.b/~u", 0),
	    "only a ~2% drop; 94% ~ 96%; https://a.b/~u",
	    "~ for 'about' and in URLs stays");
}

static void
commands(void)
{
	T_STREQ(plain("a \\emph{strictly weaker} fragment", 0),
	    "a strictly weaker fragment", "\\emph");
	T_STREQ(plain("the \\textit{log det} and \\textbf{\\textsc{X}}", 0),
	    "the log det and X", "nested font commands");
	T_STREQ(plain("E\\textsuperscript{2}R-FLOPs", 0), "E²R-FLOPs",
	    "\\textsuperscript");
	T_STREQ(plain("at~\\url{https://x.org/a_b}", 0),
	    "at\xc2\xa0https://x.org/a_b", "\\url keeps its text");
	T_STREQ(plain("Code: \\href{https://github.com/a/b}{here}.", 0),
	    "Code: here.", "\\href gives its text");
	T_STREQ(plain("\\ding{182} identifying \\tool{X}", 0),
	    "\\ding{182} identifying \\tool{X}", "unknown commands stay");
	T_STREQ(plain("4.64\\times and \\pi", 0), "4.64× and π",
	    "math symbols outside math");
	T_STREQ(plain("a {snowy} photo", 0), "a snowy photo",
	    "a brace group loses its braces");
	T_STREQ(plain("close } first, then open { only", 0),
	    "close } first, then open { only", "unbalanced braces stay");
	T_STREQ(plain("trailing \\", 0), "trailing \\", "a lone backslash");
}

static void
math_plain(void)
{
	T_STREQ(plain("such as $tanh$, $sigmoid$", 0), "such as tanh, sigmoid",
	    "letters");
	T_STREQ(plain("throughput up to 4.64$\\times$, and 5.02 $\\times$", 0),
	    "throughput up to 4.64×, and 5.02 ×", "$\\times$ from the data");
	T_STREQ(plain("$\\alpha$, $x^2$, $x_i$, $10^{-3}$, $\\ell_2$", 0),
	    "α, x², xᵢ, 10⁻³, ℓ₂", "Greek and scripts");
	T_STREQ(plain("with $\\mathcal{O}(T)$ Complexity", 0),
	    "with 𝒪(T) Complexity", "\\mathcal");
	T_STREQ(plain("$\\mathcal{O}(n \\log n)$ and $a \\leq b$", 0),
	    "𝒪(n log n) and a ≤ b", "spacing of functions and relations");
	T_STREQ(plain("$\\mathbb{R}^d$, $\\frac{1}{2}$, $\\sqrt{n}$", 0),
	    "ℝ^d, 1/2, √n", "\\mathbb, \\frac, \\sqrt");
	T_STREQ(plain("$\\frac{a+b}{2}$ and $\\sqrt[3]{x}$", 0),
	    "(a + b)/2 and ³√x", "groups in parentheses, roots");
	T_STREQ(plain("$\\sim$10\\% and \\(\\text{TC}^0\\)", 0), "∼10% and TC⁰",
	    "$\\sim$ before digits; \\( \\)");
	T_STREQ(plain("objectives$\\unicode{x2013}$including", 0),
	    "objectives–including", "\\unicode");
	T_STREQ(plain("$O(1/\\epsilon^2)$, $f(x) - 1$, $(-x)$", 0),
	    "O(1/ϵ²), f(x) − 1, (−x)", "binary and unary minus");
	T_STREQ(plain("$\\geq 92%$", 0), "≥92%", "a raw % inside math");
	/* From the data: words in scripts, accents, a trailing operator. */
	T_STREQ(plain("$n_{exp}$, $D_{col}$, $N^{o(1)}$, $x^{2n}$", 0),
	    "n_exp, D_col, N^(o(1)), x²ⁿ", "words in scripts stay words");
	T_STREQ(plain("in $\\tilde O (N^{subw})$-time", 0), "in Õ(N^subw)-time",
	    "\\tilde on one letter composes");
	T_STREQ(plain("up to $2.9\\times$ speedups", 0), "up to 2.9× speedups",
	    "an operator at the end is not spaced");
	T_STREQ(plain("Re$^2$: and S$^3$-Attention", 0),
	    "Re²: and S³-Attention", "titles' $^2$");
}

static void
math_fallbacks(void)
{
	T_STREQ(plain("costs $5 and $10 each", 0), "costs $5 and $10 each",
	    "prices are not math");
	T_STREQ(plain("a $ b and c$", 0), "a $ b and c$",
	    "a $ before a space opens nothing");
	T_STREQ(plain("$\\bW_q$ and $\\foo$", 0), "$\\bW_q$ and $\\foo$",
	    "unknown macros leave the math literal");
	T_STREQ(plain("$x^$ $\\frac{1}$ ${x$ $a & b$", 0),
	    "$x^$ $\\frac{1}$ ${x$ $a & b$", "broken math stays literal");
	T_STREQ(plain("$\\unicode{x202e}$", 0), "$\\unicode{x202e}$",
	    "no bidi override from \\unicode");
	T_STREQ(plain("\\unicode{0}", 0), "\\unicode{0}",
	    "no control from \\unicode");
}

static void
keep_math(void)
{
	T_STREQ(plain("Mj\\\"olnir: $\\alpha_i \\leq 45.1\\%$ -- ok", 1),
	    "Mjölnir: $\\alpha_i \\leq 45.1\\%$ – ok",
	    "keep_math: text converted, math as source");
	T_STREQ(md("Mj\\\"olnir at 45.1\\% with $x_i$"),
	    "Mjölnir at 45.1% with $x\\_i$",
	    "markdown: math kept, escaped like any text");
	T_STREQ(md("[a](javascript:x) $[b](y)$"),
	    "\\[a\\](javascript:x) $\\[b\\](y)$", "markdown stays data");
}

static void
mathml(void)
{
	T_STREQ(html("45.1\\% of $x^2$"),
	    "45.1% of <math><msup><mi>x</mi><mn>2</mn></msup></math>", "msup");
	T_STREQ(html("$\\Delta x_i$"),
	    "<math><mi mathvariant=\"normal\">Δ</mi><msub><mi>x</mi><mi>i"
	    "</mi></msub></math>",
	    "upright Delta, msub");
	T_STREQ(html("$\\frac{a+b}{\\sqrt{n}}$"),
	    "<math><mfrac><mrow><mi>a</mi><mo>+</mo><mi>b</mi></mrow>"
	    "<msqrt><mi>n</mi></msqrt></mfrac></math>",
	    "mfrac with an mrow, msqrt");
	T_STREQ(html("$x_{i,j}^{2}$"),
	    "<math><msubsup><mi>x</mi><mrow><mi>i</mi><mo>,</mo><mi>j</mi>"
	    "</mrow><mn>2</mn></msubsup></math>",
	    "msubsup");
	T_STREQ(html("$\\tilde{O}(\\sqrt{T})$"),
	    "<math><mover><mi>O</mi><mo>~</mo></mover><mo>(</mo><msqrt>"
	    "<mi>T</mi></msqrt><mo>)</mo></math>",
	    "mover");
	T_STREQ(html("$\\text{softmax}(x) \\mathrm{d}x$"),
	    "<math><mtext>softmax</mtext><mo>(</mo><mi>x</mi><mo>)</mo>"
	    "<mi mathvariant=\"normal\">d</mi><mi>x</mi></math>",
	    "mtext and \\mathrm");
	T_STREQ(html("$\\left( x \\right)$"),
	    "<math><mo>(</mo><mi>x</mi><mo>)</mo></math>",
	    "\\left and \\right draw nothing themselves");
}

static void
html_is_escaped(void)
{
	T_STREQ(html("<script>alert(1)</script> & \"q\""),
	    "&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;q&quot;",
	    "text is escaped");
	T_STREQ(html("$a<b$"), "<math><mi>a</mi><mo>&lt;</mo><mi>b</mi></math>",
	    "operators are escaped");
	T_STREQ(html("$\\text{<img src=x>}$"),
	    "<math><mtext>&lt;img src=x&gt;</mtext></math>",
	    "\\text is escaped");
	T_STREQ(html("$\\foo{<b>}$ \\bar{<i>}"),
	    "$\\foo{&lt;b&gt;}$ \\bar{&lt;i&gt;}",
	    "literal fallbacks are escaped");
	T_STREQ(html("a\xff\x01 $x$"), "a\xef\xbf\xbd <math><mi>x</mi></math>",
	    "invalid UTF-8 replaced, controls dropped");
}

static void
bounds(void)
{
	struct core_buf b = CORE_BUF_INIT;
	struct core_html h;
	const char *r;
	int i;

	/* Deep nesting: literal, never a writer error. */
	for (i = 0; i < 40; i++)
		core_buf_puts(&b, "{");
	core_buf_puts(&b, "x");
	for (i = 0; i < 40; i++)
		core_buf_puts(&b, "}");
	core_buf_reset(&b);
	core_buf_puts(&b, "$");
	for (i = 0; i < 40; i++)
		core_buf_puts(&b, "{");
	core_buf_puts(&b, "x");
	for (i = 0; i < 40; i++)
		core_buf_puts(&b, "}");
	core_buf_puts(&b, "$");
	r = html(core_buf_cstr(&b));
	T_OK(strcmp(r, "ERR") != 0 && strstr(r, "<math>") == NULL,
	    "deep math falls back to text");
	T_STREQ(plain(core_buf_cstr(&b), 0), core_buf_cstr(&b),
	    "deep math stays literal in plain text");
	/* MathML in a page nested deep already: still no writer error. */
	{
		struct core_buf o = CORE_BUF_INIT;

		core_html_open(&h, core_buf_sink(&o));
		for (i = 0; i < CORE_HTML_DEPTH - 3; i++)
			core_html_elem(&h, CORE_TAG_SPAN, NULL);
		core_html_tex(&h, "$x^{y^{z}}$");
		T_EQ(core_html_close(&h), CORE_OK,
		    "math near the depth limit is written as text");
		T_LACKS(core_buf_cstr(&o), "<math>", "no MathML there");
		core_buf_free(&o);
	}
	/* Long unbalanced input stays cheap and unchanged. */
	core_buf_reset(&b);
	for (i = 0; i < 20000; i++)
		core_buf_puts(&b, "{\\(");
	T_STREQ(plain(core_buf_cstr(&b), 0), core_buf_cstr(&b),
	    "20,000 unclosed groups and \\( stay as they are");
	T_OK(core_tex_plain(NULL, 0) == NULL, "NULL gives NULL");
	T_STREQ(plain("", 0), "", "empty gives empty");
	core_buf_free(&b);
}

int
main(void)
{
	accents_and_escapes();
	dashes_quotes_ties();
	commands();
	math_plain();
	math_fallbacks();
	keep_math();
	mathml();
	html_is_escaped();
	bounds();
	free(last);
	return T_DONE();
}
