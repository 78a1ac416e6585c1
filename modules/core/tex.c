/*
 * tex.c -- the TeX found in arXiv titles and abstracts, made readable:
 * accents composed ("Mj\"olnir" gives "Mjölnir"), escapes unescaped
 * ("45.1\%"), dashes and quotes typeset, and inline math ($...$, \(...\))
 * either as Unicode text ("$x^2$" gives "x²") or as MathML written
 * through the HTML writer.  This is not TeX: it knows a fixed set of
 * commands, and whatever it does not know stays as the literal source,
 * escaped like any text.  Work is linear in the input (a math segment is
 * parsed once, a brace group is searched for once per level) and both
 * nesting and node counts are bounded, so hostile input costs no more
 * than a long title.
 */
#include <stdlib.h>
#include <string.h>

#include <utf8proc.h>

#include "core.h"

/* Nesting of brace groups and commands in text and in math. */
#define TEXT_DEPTH 8
#define MATH_DEPTH 12
/* Nodes in one math segment, and its longest source. */
#define MATH_NODES 512
#define MATH_MAX   2048
/* How far a '{' looks for its '}', and the longest input converted. */
#define GROUP_MAX 1024
#define INPUT_MAX 65536

enum texmode {
	TEX_PLAIN,    /* math as Unicode text */
	TEX_KEEPMATH, /* math kept as its TeX source */
	TEX_HTML,     /* math as MathML */
};

struct tex {
	enum texmode mode;
	struct core_buf *out; /* text not yet written (TEX_HTML) or all */
	struct core_html *h;  /* TEX_HTML only */
};

static void put_composed(struct core_buf *, const char *base, long mark);

/* Appends code point cp as UTF-8. */
static void
put_cp(struct core_buf *b, long cp)
{
	utf8proc_uint8_t u[4];
	utf8proc_ssize_t n;

	n = utf8proc_encode_char((utf8proc_int32_t)cp, u);
	core_buf_put(b, u, (size_t)n);
}

static int
is_alpha(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static int
is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static int
is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/*
 * The length of the command name at s[i..n) after a backslash: a run of
 * letters, or one other character, or 0 at the end.
 */
static size_t
cmd_len(const char *s, size_t i, size_t n)
{
	size_t j = i;

	if (i >= n)
		return 0;
	if (!is_alpha(s[i]))
		return 1;
	while (j < n && is_alpha(s[j]))
		j++;
	return j - i;
}

static int
cmd_is(const char *name, size_t len, const char *lit)
{
	return strlen(lit) == len && memcmp(name, lit, len) == 0;
}

/*
 * The index of the '}' closing the group whose '{' is at s[i], or 0 when
 * it is not closed in s[0..n).  "\{" and "\}" do not count.
 */
static size_t
group_end(const char *s, size_t i, size_t n)
{
	size_t depth = 0;

	/* Bounded, so "{{{{..." costs GROUP_MAX per brace at most. */
	if (n - i > GROUP_MAX)
		n = i + GROUP_MAX;
	for (; i < n; i++) {
		if (s[i] == '\\') {
			i++;
			continue;
		}
		if (s[i] == '{')
			depth++;
		else if (s[i] == '}' && --depth == 0)
			return i;
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* Symbol tables                                                       */
/* ------------------------------------------------------------------ */

enum symkind { SYM_MI, SYM_MO, SYM_FN };

struct sym {
	const char *name;
	long cp; /* 0 for SYM_FN: the name is the text */
	enum symkind kind;
};

/*
 * Math symbols by name.  SYM_MI are identifiers (letters, ∞), SYM_MO
 * operators, relations and delimiters, SYM_FN the named functions
 * written upright ("log").  Each was counted in the bundled abstracts
 * or is a close relative of one that was.
 */
static const struct sym syms[] = {
	{ "alpha", 0x3b1, SYM_MI },
	{ "beta", 0x3b2, SYM_MI },
	{ "gamma", 0x3b3, SYM_MI },
	{ "delta", 0x3b4, SYM_MI },
	{ "epsilon", 0x3f5, SYM_MI },
	{ "varepsilon", 0x3b5, SYM_MI },
	{ "zeta", 0x3b6, SYM_MI },
	{ "eta", 0x3b7, SYM_MI },
	{ "theta", 0x3b8, SYM_MI },
	{ "vartheta", 0x3d1, SYM_MI },
	{ "iota", 0x3b9, SYM_MI },
	{ "kappa", 0x3ba, SYM_MI },
	{ "lambda", 0x3bb, SYM_MI },
	{ "mu", 0x3bc, SYM_MI },
	{ "nu", 0x3bd, SYM_MI },
	{ "xi", 0x3be, SYM_MI },
	{ "pi", 0x3c0, SYM_MI },
	{ "varpi", 0x3d6, SYM_MI },
	{ "rho", 0x3c1, SYM_MI },
	{ "varrho", 0x3f1, SYM_MI },
	{ "sigma", 0x3c3, SYM_MI },
	{ "varsigma", 0x3c2, SYM_MI },
	{ "tau", 0x3c4, SYM_MI },
	{ "upsilon", 0x3c5, SYM_MI },
	{ "phi", 0x3d5, SYM_MI },
	{ "varphi", 0x3c6, SYM_MI },
	{ "chi", 0x3c7, SYM_MI },
	{ "psi", 0x3c8, SYM_MI },
	{ "omega", 0x3c9, SYM_MI },
	{ "Gamma", 0x393, SYM_MI },
	{ "Delta", 0x394, SYM_MI },
	{ "Theta", 0x398, SYM_MI },
	{ "Lambda", 0x39b, SYM_MI },
	{ "Xi", 0x39e, SYM_MI },
	{ "Pi", 0x3a0, SYM_MI },
	{ "Sigma", 0x3a3, SYM_MI },
	{ "Upsilon", 0x3a5, SYM_MI },
	{ "Phi", 0x3a6, SYM_MI },
	{ "Psi", 0x3a8, SYM_MI },
	{ "Omega", 0x3a9, SYM_MI },
	{ "ell", 0x2113, SYM_MI },
	{ "hbar", 0x210f, SYM_MI },
	{ "infty", 0x221e, SYM_MI },
	{ "aleph", 0x2135, SYM_MI },
	{ "Re", 0x211c, SYM_MI },
	{ "Im", 0x2111, SYM_MI },
	{ "wp", 0x2118, SYM_MI },
	{ "imath", 0x131, SYM_MI },
	{ "jmath", 0x237, SYM_MI },
	{ "emptyset", 0x2205, SYM_MI },
	{ "varnothing", 0x2205, SYM_MI },
	{ "partial", 0x2202, SYM_MI },
	{ "nabla", 0x2207, SYM_MI },
	{ "top", 0x22a4, SYM_MI },
	{ "bot", 0x22a5, SYM_MI },
	{ "checkmark", 0x2713, SYM_MI },
	{ "angle", 0x2220, SYM_MI },
	{ "triangle", 0x25b3, SYM_MI },
	{ "times", 0xd7, SYM_MO },
	{ "cdot", 0x22c5, SYM_MO },
	{ "cdotp", 0x22c5, SYM_MO },
	{ "pm", 0xb1, SYM_MO },
	{ "mp", 0x2213, SYM_MO },
	{ "div", 0xf7, SYM_MO },
	{ "ast", 0x2217, SYM_MO },
	{ "star", 0x22c6, SYM_MO },
	{ "circ", 0x2218, SYM_MO },
	{ "bullet", 0x2219, SYM_MO },
	{ "leq", 0x2264, SYM_MO },
	{ "le", 0x2264, SYM_MO },
	{ "geq", 0x2265, SYM_MO },
	{ "ge", 0x2265, SYM_MO },
	{ "leqslant", 0x2a7d, SYM_MO },
	{ "geqslant", 0x2a7e, SYM_MO },
	{ "neq", 0x2260, SYM_MO },
	{ "ne", 0x2260, SYM_MO },
	{ "sim", 0x223c, SYM_MO },
	{ "simeq", 0x2243, SYM_MO },
	{ "approx", 0x2248, SYM_MO },
	{ "cong", 0x2245, SYM_MO },
	{ "equiv", 0x2261, SYM_MO },
	{ "propto", 0x221d, SYM_MO },
	{ "ll", 0x226a, SYM_MO },
	{ "gg", 0x226b, SYM_MO },
	{ "lesssim", 0x2272, SYM_MO },
	{ "gtrsim", 0x2273, SYM_MO },
	{ "prec", 0x227a, SYM_MO },
	{ "succ", 0x227b, SYM_MO },
	{ "preceq", 0x2aaf, SYM_MO },
	{ "succeq", 0x2ab0, SYM_MO },
	{ "in", 0x2208, SYM_MO },
	{ "notin", 0x2209, SYM_MO },
	{ "ni", 0x220b, SYM_MO },
	{ "subset", 0x2282, SYM_MO },
	{ "supset", 0x2283, SYM_MO },
	{ "subseteq", 0x2286, SYM_MO },
	{ "supseteq", 0x2287, SYM_MO },
	{ "cup", 0x222a, SYM_MO },
	{ "cap", 0x2229, SYM_MO },
	{ "setminus", 0x2216, SYM_MO },
	{ "wedge", 0x2227, SYM_MO },
	{ "land", 0x2227, SYM_MO },
	{ "vee", 0x2228, SYM_MO },
	{ "lor", 0x2228, SYM_MO },
	{ "neg", 0xac, SYM_MO },
	{ "lnot", 0xac, SYM_MO },
	{ "oplus", 0x2295, SYM_MO },
	{ "ominus", 0x2296, SYM_MO },
	{ "otimes", 0x2297, SYM_MO },
	{ "odot", 0x2299, SYM_MO },
	{ "to", 0x2192, SYM_MO },
	{ "rightarrow", 0x2192, SYM_MO },
	{ "gets", 0x2190, SYM_MO },
	{ "leftarrow", 0x2190, SYM_MO },
	{ "leftrightarrow", 0x2194, SYM_MO },
	{ "Rightarrow", 0x21d2, SYM_MO },
	{ "Leftarrow", 0x21d0, SYM_MO },
	{ "Leftrightarrow", 0x21d4, SYM_MO },
	{ "longrightarrow", 0x27f6, SYM_MO },
	{ "longleftarrow", 0x27f5, SYM_MO },
	{ "mapsto", 0x21a6, SYM_MO },
	{ "implies", 0x27f9, SYM_MO },
	{ "iff", 0x27fa, SYM_MO },
	{ "uparrow", 0x2191, SYM_MO },
	{ "downarrow", 0x2193, SYM_MO },
	{ "hookrightarrow", 0x21aa, SYM_MO },
	{ "forall", 0x2200, SYM_MO },
	{ "exists", 0x2203, SYM_MO },
	{ "sum", 0x2211, SYM_MO },
	{ "prod", 0x220f, SYM_MO },
	{ "int", 0x222b, SYM_MO },
	{ "oint", 0x222e, SYM_MO },
	{ "bigcup", 0x22c3, SYM_MO },
	{ "bigcap", 0x22c2, SYM_MO },
	{ "mid", 0x2223, SYM_MO },
	{ "parallel", 0x2225, SYM_MO },
	{ "perp", 0x22a5, SYM_MO },
	{ "vert", 0x7c, SYM_MO },
	{ "lvert", 0x7c, SYM_MO },
	{ "rvert", 0x7c, SYM_MO },
	{ "Vert", 0x2016, SYM_MO },
	{ "langle", 0x27e8, SYM_MO },
	{ "rangle", 0x27e9, SYM_MO },
	{ "lceil", 0x2308, SYM_MO },
	{ "rceil", 0x2309, SYM_MO },
	{ "lfloor", 0x230a, SYM_MO },
	{ "rfloor", 0x230b, SYM_MO },
	{ "ldots", 0x2026, SYM_MO },
	{ "dots", 0x2026, SYM_MO },
	{ "cdots", 0x22ef, SYM_MO },
	{ "vdots", 0x22ee, SYM_MO },
	{ "ddots", 0x22f1, SYM_MO },
	{ "prime", 0x2032, SYM_MO },
	{ "dagger", 0x2020, SYM_MO },
	{ "colon", 0x3a, SYM_MO },
	{ "coloneqq", 0x2254, SYM_MO },
	{ "backslash", 0x5c, SYM_MO },
	{ "log", 0, SYM_FN },
	{ "ln", 0, SYM_FN },
	{ "lg", 0, SYM_FN },
	{ "exp", 0, SYM_FN },
	{ "sin", 0, SYM_FN },
	{ "cos", 0, SYM_FN },
	{ "tan", 0, SYM_FN },
	{ "cot", 0, SYM_FN },
	{ "sinh", 0, SYM_FN },
	{ "cosh", 0, SYM_FN },
	{ "tanh", 0, SYM_FN },
	{ "arcsin", 0, SYM_FN },
	{ "arccos", 0, SYM_FN },
	{ "arctan", 0, SYM_FN },
	{ "min", 0, SYM_FN },
	{ "max", 0, SYM_FN },
	{ "sup", 0, SYM_FN },
	{ "inf", 0, SYM_FN },
	{ "lim", 0, SYM_FN },
	{ "liminf", 0, SYM_FN },
	{ "limsup", 0, SYM_FN },
	{ "arg", 0, SYM_FN },
	{ "det", 0, SYM_FN },
	{ "dim", 0, SYM_FN },
	{ "gcd", 0, SYM_FN },
	{ "ker", 0, SYM_FN },
	{ "Pr", 0, SYM_FN },
	{ "deg", 0, SYM_FN },
	{ "bmod", 0, SYM_FN },
};

static const struct sym *
sym_find(const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < sizeof(syms) / sizeof(syms[0]); i++)
		if (cmd_is(name, len, syms[i].name))
			return &syms[i];
	return NULL;
}

/* Letters and symbols written by name in running text. */
static const struct textsym {
	const char *name;
	const char *utf8;
} textsyms[] = {
	{ "ss", "ß" },
	{ "o", "ø" },
	{ "O", "Ø" },
	{ "aa", "å" },
	{ "AA", "Å" },
	{ "ae", "æ" },
	{ "AE", "Æ" },
	{ "oe", "œ" },
	{ "OE", "Œ" },
	{ "l", "ł" },
	{ "L", "Ł" },
	{ "i", "ı" },
	{ "j", "ȷ" },
	{ "dh", "ð" },
	{ "DH", "Ð" },
	{ "th", "þ" },
	{ "TH", "Þ" },
	{ "dj", "đ" },
	{ "DJ", "Đ" },
	{ "S", "§" },
	{ "P", "¶" },
	{ "dag", "†" },
	{ "ddag", "‡" },
	{ "copyright", "©" },
	{ "textregistered", "®" },
	{ "texttrademark", "™" },
	{ "textemdash", "—" },
	{ "textendash", "–" },
	{ "textdegree", "°" },
	{ "deg", "°" },
	{ "textmu", "µ" },
	{ "textasciitilde", "~" },
	{ "textbackslash", "\\" },
	{ "textbar", "|" },
	{ "textless", "<" },
	{ "textgreater", ">" },
	{ "textquotedblleft", "“" },
	{ "textquotedblright", "”" },
	{ "textbullet", "•" },
	{ "ldots", "…" },
	{ "dots", "…" },
	{ "LaTeX", "LaTeX" },
	{ "TeX", "TeX" },
	{ "checkmark", "✓" },
	{ "euro", "€" },
	{ "pounds", "£" },
};

static const char *
textsym_find(const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < sizeof(textsyms) / sizeof(textsyms[0]); i++)
		if (cmd_is(name, len, textsyms[i].name))
			return textsyms[i].utf8;
	return NULL;
}

/* The combining mark of an accent command ("\"" gives U+0308), or 0. */
static long
accent_mark(const char *name, size_t len)
{
	static const struct {
		char c;
		long mark;
	} acc[] = {
		{ '\'', 0x301 },
		{ '`', 0x300 },
		{ '^', 0x302 },
		{ '"', 0x308 },
		{ '~', 0x303 },
		{ '=', 0x304 },
		{ '.', 0x307 },
		{ 'u', 0x306 },
		{ 'v', 0x30c },
		{ 'H', 0x30b },
		{ 'c', 0x327 },
		{ 'k', 0x328 },
		{ 'r', 0x30a },
		{ 'd', 0x323 },
		{ 'b', 0x331 },
	};
	size_t i;

	if (len != 1)
		return 0;
	for (i = 0; i < sizeof(acc) / sizeof(acc[0]); i++)
		if (acc[i].c == name[0])
			return acc[i].mark;
	return 0;
}

/*
 * Commands whose one argument is text to show as it is, their markup
 * dropped (\emph{x} gives x).
 */
static const char *const textarg_cmds[] = { "textbf", "textit", "emph",
	"textsc", "texttt", "textsf", "textrm", "textnormal", "textup",
	"textsl", "underline", "uline", "mbox", "text", "textmd", "mathrm",
	"mathit", "mathbf", "mathsf", "mathtt", NULL };

/* Font switches with no argument, dropped in text and in math. */
static const char *const decl_cmds[] = { "em", "it", "bf", "sc", "rm", "tt",
	"sf", "sl", "cal", "normalfont", "displaystyle", "textstyle",
	"scriptstyle", "limits", "nolimits", "left", "right", "middle", "big",
	"Big", "bigg", "Bigg", "bigl", "bigr", "Bigl", "Bigr", "biggl", "biggr",
	NULL };

/* Whether the command name[0..len) is one of the NULL-ended names. */
static int
cmd_in(const char *name, size_t len, const char *const *names)
{
	for (; *names != NULL; names++)
		if (cmd_is(name, len, *names))
			return 1;
	return 0;
}

/*
 * Code point of \unicode{xHHHH} or \unicode{NNNN} in s[i..n) (i at the
 * '{'), or 0 if malformed or not a printable character: controls, bidi
 * and other format characters, surrogates and noncharacters are refused
 * so no invisible text can come from a title.  *end gets the '}'.
 */
static long
unicode_arg(const char *s, size_t i, size_t n, size_t *end)
{
	size_t e, j;
	long cp = 0;
	int hex;

	if (i >= n || s[i] != '{' || (e = group_end(s, i, n)) == 0)
		return 0;
	j = i + 1;
	hex = j < e && (s[j] == 'x' || s[j] == 'X');
	if (hex)
		j++;
	if (j == e || e - j > 7)
		return 0;
	for (; j < e; j++) {
		char c = s[j];
		int d;

		if (is_digit(c))
			d = c - '0';
		else if (hex && c >= 'a' && c <= 'f')
			d = c - 'a' + 10;
		else if (hex && c >= 'A' && c <= 'F')
			d = c - 'A' + 10;
		else
			return 0;
		cp = cp * (hex ? 16 : 10) + d;
	}
	if (cp < 0xa0 || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff) ||
	    (cp >= 0x200b && cp <= 0x200f) || (cp >= 0x2028 && cp <= 0x202e) ||
	    (cp >= 0x2060 && cp <= 0x206f) || (cp >= 0xfff0) ||
	    (cp & 0xfffe) == 0xfffe || (cp >= 0xfdd0 && cp <= 0xfdef) ||
	    cp == 0xad)
		return 0;
	*end = e;
	return cp;
}

/* ------------------------------------------------------------------ */
/* Math: a small tree, then MathML or text                             */
/* ------------------------------------------------------------------ */

enum mkind {
	M_MI,
	M_MN,
	M_MO,
	M_MTEXT, /* leaves: text in txt[off..off+len) */
	M_ROW,   /* kids: first, then next ... */
	M_SUP,
	M_SUB,
	M_SUBSUP, /* a: base, b: sub or sup, c: sup */
	M_FRAC,   /* a over b */
	M_SQRT,   /* a */
	M_ROOT,   /* a: radicand, b: index */
	M_OVER,   /* a: base, b: the accent (an M_MO) */
	M_UNDER,  /* a: base, b: the mark (an M_MO) */
};

struct mnode {
	enum mkind kind;
	int normal; /* an M_MI drawn upright (Γ, \mathrm{d}) */
	size_t off, len;
	int a, b, c; /* children, -1 if none */
	int first, next;
};

struct mparse {
	const char *s;
	size_t n, i;
	struct mnode nodes[MATH_NODES];
	int nn;
	struct core_buf txt;
	int depth, maxdepth;
	int bad;
};

static int
mnew(struct mparse *p, enum mkind k)
{
	struct mnode *m;

	if (p->nn >= MATH_NODES) {
		p->bad = 1;
		return -1;
	}
	m = &p->nodes[p->nn];
	memset(m, 0, sizeof(*m));
	m->kind = k;
	m->a = m->b = m->c = m->first = m->next = -1;
	m->off = p->txt.len;
	return p->nn++;
}

/* A leaf whose text is s[0..n). */
static int
mleaf(struct mparse *p, enum mkind k, const char *s, size_t n)
{
	int x = mnew(p, k);

	if (x >= 0) {
		core_buf_put(&p->txt, s, n);
		p->nodes[x].len = n;
	}
	return x;
}

static int
mleaf_cp(struct mparse *p, enum mkind k, long cp)
{
	int x = mnew(p, k);

	if (x >= 0) {
		put_cp(&p->txt, cp);
		p->nodes[x].len = p->txt.len - p->nodes[x].off;
	}
	return x;
}

static int matom(struct mparse *);
static int mrow(struct mparse *, int braced);

static void
mskip_space(struct mparse *p)
{
	while (p->i < p->n && is_space(p->s[p->i]))
		p->i++;
}

/* An argument: one atom, or a braced group. */
static int
marg(struct mparse *p)
{
	mskip_space(p);
	if (p->i >= p->n || p->s[p->i] == '}' || p->s[p->i] == '^' ||
	    p->s[p->i] == '_') {
		p->bad = 1;
		return -1;
	}
	return matom(p);
}

/*
 * The raw text of a braced argument at p->i, for \text and friends: the
 * bytes between the braces, p->i moved past the '}'.  NULL if there is
 * no braced argument.
 */
static const char *
mraw_arg(struct mparse *p, size_t *len)
{
	size_t e;
	const char *r;

	mskip_space(p);
	if (p->i >= p->n || p->s[p->i] != '{' ||
	    (e = group_end(p->s, p->i, p->n)) == 0) {
		p->bad = 1;
		return NULL;
	}
	r = p->s + p->i + 1;
	*len = e - p->i - 1;
	p->i = e + 1;
	return r;
}

/*
 * The mathematical alphabets: the font commands that select one, the
 * code points of its A, a and 0 (0: it has no digits), and the letters
 * Unicode encoded before the math alphabets, which are holes in them.
 */
static const long bb_holecp[] = { 0x2102, 0x210d, 0x2115, 0x2119, 0x211a,
	0x211d, 0x2124 };
static const long cal_holecp[] = { 0x212c, 0x2130, 0x2131, 0x210b, 0x2110,
	0x2112, 0x2133, 0x211b, 0x212f, 0x210a, 0x2134 };
static const struct alphabet {
	const char *fonts[4]; /* NULL-ended */
	long upper, lower, digit;
	const char *hole;
	const long *holecp;
} alphabets[] = {
	{ { "mathbb" }, 0x1d538, 0x1d552, 0x1d7d8, "CHNPQRZ", bb_holecp },
	{ { "mathcal", "mathscr" }, 0x1d49c, 0x1d4b6, 0, "BEFHILMRego",
	    cal_holecp },
	{ { "mathbf", "boldsymbol", "bm" }, 0x1d400, 0x1d41a, 0x1d7ce, "",
	    NULL },
};

/* Maps a letter or digit to a mathematical alphabet; 0 if it has none. */
static long
alphabet(const char *font, char c)
{
	const struct alphabet *a;
	const char *q;
	size_t i, k;

	for (i = 0; i < sizeof(alphabets) / sizeof(alphabets[0]); i++) {
		a = &alphabets[i];
		for (k = 0; a->fonts[k] != NULL; k++)
			if (strcmp(font, a->fonts[k]) == 0)
				break;
		if (a->fonts[k] == NULL)
			continue;
		if ((q = strchr(a->hole, c)) != NULL && c != '\0')
			return a->holecp[q - a->hole];
		if (c >= 'A' && c <= 'Z')
			return a->upper + (c - 'A');
		if (c >= 'a' && c <= 'z')
			return a->lower + (c - 'a');
		if (is_digit(c) && a->digit != 0)
			return a->digit + (c - '0');
		return 0;
	}
	return 0;
}

/*
 * \mathbb{R} and the like: a row of identifiers in that alphabet.  Only
 * letters, digits and spaces may be inside; anything else (a bold
 * Greek letter, a nested command) is parsed as plain math instead.
 */
static int
mfont(struct mparse *p, const char *font)
{
	size_t save, len, k;
	const char *r;
	int row, last = -1, x;

	mskip_space(p);
	save = p->i;
	if (p->i < p->n && p->s[p->i] != '{') {
		/* \mathbb R: one letter. */
		r = p->s + p->i;
		len = 1;
		if (!alphabet(font, r[0]))
			return marg(p);
		p->i++;
	} else if ((r = mraw_arg(p, &len)) == NULL)
		return -1;
	for (k = 0; k < len; k++)
		if (!is_space(r[k]) && alphabet(font, r[k]) == 0) {
			p->i = save;
			return marg(p);
		}
	if ((row = mnew(p, M_ROW)) < 0)
		return -1;
	for (k = 0; k < len; k++) {
		if (is_space(r[k]))
			continue;
		x = mleaf_cp(p, is_digit(r[k]) ? M_MN : M_MI,
		    alphabet(font, r[k]));
		if (x < 0)
			return -1;
		if (last < 0)
			p->nodes[row].first = x;
		else
			p->nodes[last].next = x;
		last = x;
	}
	return row;
}

/*
 * \mathrm{d}, \operatorname{softmax}: upright text as one identifier
 * when it is letters, digits and spaces; else parsed as plain math.
 */
static int
mupright(struct mparse *p)
{
	size_t save, len, k;
	const char *r;
	int x;

	mskip_space(p);
	save = p->i;
	if ((r = mraw_arg(p, &len)) == NULL)
		return -1;
	for (k = 0; k < len; k++)
		if (!is_alpha(r[k]) && !is_digit(r[k]) && r[k] != ' ' &&
		    r[k] != '-')
			break;
	if (k < len || len == 0) {
		p->i = save;
		return marg(p);
	}
	if ((x = mleaf(p, M_MI, r, len)) >= 0)
		p->nodes[x].normal = 1;
	return x;
}

/* \text{...}: its argument converted as running text. */
static void text_run(struct tex *, const char *, size_t, int);

static int
mtext(struct mparse *p)
{
	struct core_buf b = CORE_BUF_INIT;
	struct tex t = { TEX_PLAIN, &b, NULL };
	const char *r;
	size_t len;
	int x;

	if ((r = mraw_arg(p, &len)) == NULL)
		return -1;
	text_run(&t, r, len, TEXT_DEPTH - 2);
	x = mleaf(p, M_MTEXT, core_buf_cstr(&b), b.len);
	core_buf_free(&b);
	return x;
}

/* The combining accent of \hat and friends, as the mark drawn over. */
static long
over_mark(const char *name, size_t len)
{
	if (cmd_is(name, len, "hat") || cmd_is(name, len, "widehat"))
		return 0x5e;
	if (cmd_is(name, len, "tilde") || cmd_is(name, len, "widetilde"))
		return 0x7e;
	if (cmd_is(name, len, "bar") || cmd_is(name, len, "overline"))
		return 0xaf;
	if (cmd_is(name, len, "vec") || cmd_is(name, len, "overrightarrow"))
		return 0x2192;
	if (cmd_is(name, len, "dot"))
		return 0x2d9;
	if (cmd_is(name, len, "ddot"))
		return 0xa8;
	if (cmd_is(name, len, "check"))
		return 0x2c7;
	if (cmd_is(name, len, "breve"))
		return 0x2d8;
	return 0;
}

/* A command after '\' at p->i. */
static int
mcommand(struct mparse *p)
{
	const char *name = p->s + p->i;
	size_t len = cmd_len(p->s, p->i, p->n);
	const struct sym *sy;
	long cp;
	size_t e;
	int x, y;

	if (len == 0) {
		p->bad = 1;
		return -1;
	}
	p->i += len;
	if (len == 1 && strchr("{}%$#&_", name[0]) != NULL)
		return mleaf(p, M_MO, name, 1);
	if (len == 1 && strchr(",;: ", name[0]) != NULL)
		return mleaf_cp(p, M_MTEXT, name[0] == ',' ? 0x2009 : 0x2005);
	if (len == 1 && name[0] == '!')
		return mnew(p, M_ROW);
	if (cmd_is(name, len, "quad"))
		return mleaf_cp(p, M_MTEXT, 0x2003);
	if (cmd_is(name, len, "qquad"))
		return mleaf(p, M_MTEXT, "\xe2\x80\x83\xe2\x80\x83", 6);
	if ((sy = sym_find(name, len)) != NULL) {
		if (sy->kind == SYM_FN) {
			if ((x = mleaf(p, M_MI, name, len)) >= 0)
				p->nodes[x].normal = 1;
			return x;
		}
		x = mleaf_cp(p, sy->kind == SYM_MI ? M_MI : M_MO, sy->cp);
		/* Upper-case Greek is upright in TeX. */
		if (x >= 0 && sy->cp >= 0x391 && sy->cp <= 0x3a9)
			p->nodes[x].normal = 1;
		return x;
	}
	if (cmd_is(name, len, "frac") || cmd_is(name, len, "dfrac") ||
	    cmd_is(name, len, "tfrac")) {
		if ((x = mnew(p, M_FRAC)) < 0)
			return -1;
		p->nodes[x].a = marg(p);
		p->nodes[x].b = marg(p);
		return x;
	}
	if (cmd_is(name, len, "sqrt")) {
		mskip_space(p);
		if (p->i < p->n && p->s[p->i] == '[') {
			/* \sqrt[n]{x}: the index is a row up to ']'. */
			if ((x = mnew(p, M_ROOT)) < 0)
				return -1;
			p->i++;
			p->nodes[x].b = mrow(p, ']');
			p->nodes[x].a = marg(p);
			return x;
		}
		if ((x = mnew(p, M_SQRT)) < 0)
			return -1;
		p->nodes[x].a = marg(p);
		return x;
	}
	if ((cp = over_mark(name, len)) != 0) {
		if ((x = mnew(p, M_OVER)) < 0)
			return -1;
		p->nodes[x].a = marg(p);
		p->nodes[x].b = mleaf_cp(p, M_MO, cp);
		return x;
	}
	if (cmd_is(name, len, "underline")) {
		if ((x = mnew(p, M_UNDER)) < 0)
			return -1;
		p->nodes[x].a = marg(p);
		p->nodes[x].b = mleaf_cp(p, M_MO, 0x5f);
		return x;
	}
	if (cmd_is(name, len, "mathbb") || cmd_is(name, len, "mathcal") ||
	    cmd_is(name, len, "mathscr") || cmd_is(name, len, "mathbf") ||
	    cmd_is(name, len, "boldsymbol") || cmd_is(name, len, "bm")) {
		char font[16];

		memcpy(font, name, len);
		font[len] = '\0';
		return mfont(p, font);
	}
	if (cmd_is(name, len, "mathrm") || cmd_is(name, len, "operatorname") ||
	    cmd_is(name, len, "mathsf") || cmd_is(name, len, "mathtt") ||
	    cmd_is(name, len, "mathit"))
		return mupright(p);
	if (cmd_is(name, len, "text") || cmd_is(name, len, "textrm") ||
	    cmd_is(name, len, "textit") || cmd_is(name, len, "textbf") ||
	    cmd_is(name, len, "texttt") || cmd_is(name, len, "textsf") ||
	    cmd_is(name, len, "mbox"))
		return mtext(p);
	if (cmd_is(name, len, "href")) {
		/* \href{url}{text}: the text; links are not drawn in math. */
		size_t ulen;

		if (mraw_arg(p, &ulen) == NULL)
			return -1;
		return mtext(p);
	}
	if (cmd_is(name, len, "pmod")) {
		/* \pmod{n}: "(mod n)". */
		int row = mnew(p, M_ROW), k[4];

		k[0] = mleaf(p, M_MO, "(", 1);
		k[1] = mleaf(p, M_MI, "mod", 3);
		k[2] = marg(p);
		k[3] = mleaf(p, M_MO, ")", 1);
		if (row < 0 || k[0] < 0 || k[1] < 0 || k[2] < 0 || k[3] < 0)
			return -1;
		p->nodes[k[1]].normal = 1;
		p->nodes[row].first = k[0];
		p->nodes[k[0]].next = k[1];
		p->nodes[k[1]].next = k[2];
		p->nodes[k[2]].next = k[3];
		return row;
	}
	if (cmd_is(name, len, "unicode")) {
		mskip_space(p);
		if ((cp = unicode_arg(p->s, p->i, p->n, &e)) == 0) {
			p->bad = 1;
			return -1;
		}
		p->i = e + 1;
		return mleaf_cp(p, M_MO, cp);
	}
	if (cmd_in(name, len, decl_cmds)) {
		/* \left. and \right. draw nothing. */
		mskip_space(p);
		if (p->i < p->n && p->s[p->i] == '.')
			p->i++;
		y = mnew(p, M_ROW);
		return y;
	}
	p->bad = 1; /* unknown: the whole segment stays literal */
	return -1;
}

/* One atom: a letter, a number, an operator, a group or a command. */
static int
matom(struct mparse *p)
{
	char c;
	size_t j;
	int x;

	if (p->bad || p->i >= p->n) {
		p->bad = 1;
		return -1;
	}
	if (++p->depth > MATH_DEPTH) {
		p->bad = 1;
		return -1;
	}
	if (p->depth > p->maxdepth)
		p->maxdepth = p->depth;
	c = p->s[p->i];
	if (is_alpha(c)) {
		x = mleaf(p, M_MI, p->s + p->i, 1);
		p->i++;
	} else if (is_digit(c) ||
	    (c == '.' && p->i + 1 < p->n && is_digit(p->s[p->i + 1]))) {
		j = p->i;
		while (j < p->n &&
		    (is_digit(p->s[j]) ||
			(p->s[j] == '.' && j + 1 < p->n &&
			    is_digit(p->s[j + 1]))))
			j++;
		x = mleaf(p, M_MN, p->s + p->i, j - p->i);
		p->i = j;
	} else if (c == '{') {
		p->i++;
		x = mrow(p, '}');
	} else if (c == '\\') {
		p->i++;
		x = mcommand(p);
	} else if (c == '-') {
		x = mleaf_cp(p, M_MO, 0x2212);
		p->i++;
	} else if (c == '\'') {
		x = mleaf_cp(p, M_MO, 0x2032);
		p->i++;
	} else if (strchr("+=<>()[],;:!/|*.?@\"%", c) != NULL) {
		x = mleaf(p, M_MO, p->s + p->i, 1);
		p->i++;
	} else if ((unsigned char)c >= 0x80) {
		/* A non-ASCII character as it is: one identifier. */
		j = p->i + 1;
		while (j < p->n && ((unsigned char)p->s[j] & 0xc0) == 0x80)
			j++;
		x = mleaf(p, M_MI, p->s + p->i, j - p->i);
		p->i = j;
	} else {
		/* & # ^ _ ~ } and controls have no meaning we draw. */
		p->bad = 1;
		x = -1;
	}
	p->depth--;
	return x;
}

/*
 * A row of atoms with their scripts, up to close ('}' or ']', consumed)
 * or, for close 0, the end.
 */
static int
mrow(struct mparse *p, int close)
{
	int row, last = -1, base, x, sup, sub;
	char c;

	if ((row = mnew(p, M_ROW)) < 0)
		return -1;
	if (++p->depth > MATH_DEPTH) {
		p->bad = 1;
		return -1;
	}
	for (;;) {
		mskip_space(p);
		if (p->bad)
			return -1;
		if (p->i >= p->n) {
			if (close != 0)
				p->bad = 1;
			break;
		}
		c = p->s[p->i];
		if (close != 0 && c == close) {
			p->i++;
			break;
		}
		if (c == '~') {
			p->i++;
			continue;
		}
		if (c == '^' || c == '_')
			base = mnew(p, M_ROW); /* a script on nothing */
		else
			base = matom(p);
		if (base < 0)
			return -1;
		sup = sub = -1;
		for (;;) {
			mskip_space(p);
			if (p->i >= p->n)
				break;
			c = p->s[p->i];
			if (c == '^' && sup < 0) {
				p->i++;
				sup = marg(p);
			} else if (c == '_' && sub < 0) {
				p->i++;
				sub = marg(p);
			} else if (c == '\'' && sup < 0) {
				p->i++;
				sup = mleaf_cp(p, M_MO, 0x2032);
			} else
				break;
			if (p->bad)
				return -1;
		}
		x = base;
		if (sup >= 0 || sub >= 0) {
			x = mnew(p,
			    sup >= 0 && sub >= 0 ? M_SUBSUP
				: sup >= 0       ? M_SUP
						 : M_SUB);
			if (x < 0)
				return -1;
			p->nodes[x].a = base;
			p->nodes[x].b = sub >= 0 ? sub : sup;
			p->nodes[x].c = sub >= 0 ? sup : -1;
		}
		if (last < 0)
			p->nodes[row].first = x;
		else
			p->nodes[last].next = x;
		last = x;
	}
	p->depth--;
	return row;
}

/* ---- MathML ---- */

static void mml(struct tex *, struct mparse *, int x, int wrap);
static int row_count(struct mparse *, int row);

/* Children of a row, each as one element. */
static void
mml_kids(struct tex *t, struct mparse *p, int row)
{
	int k;

	for (k = p->nodes[row].first; k >= 0; k = p->nodes[k].next)
		/* \left, \, and the like leave empty rows: nothing to draw. */
		if (p->nodes[k].kind != M_ROW || row_count(p, k) > 0)
			mml(t, p, k, 1);
}

static int
row_count(struct mparse *p, int row)
{
	int k, n = 0;

	for (k = p->nodes[row].first; k >= 0; k = p->nodes[k].next)
		n++;
	return n;
}

static void
mml_leaf(struct tex *t, struct mparse *p, enum core_tag tag, int x)
{
	struct mnode *m = &p->nodes[x];
	utf8proc_int32_t cp;
	/* A longer <mi> is upright already. */
	int upright = m->normal && tag == CORE_TAG_MI &&
	    utf8proc_iterate((const utf8proc_uint8_t *)p->txt.ptr + m->off,
		(utf8proc_ssize_t)m->len, &cp) == (utf8proc_ssize_t)m->len;

	core_html_elem(t->h, tag,
	    upright ? (const struct core_attr[]){ { CORE_ATTR_MATHVARIANT,
						      "normal" },
			  { CORE_ATTR__MAX, NULL } }
		    : NULL);
	core_html_textn(t->h, p->txt.ptr + m->off, m->len);
	core_html_pop(t->h);
}

/*
 * Writes node x.  A row with one child is that child; with wrap, a row
 * of any other size is one <mrow>, since a script or fraction takes
 * exactly one element per argument.
 */
static void
mml(struct tex *t, struct mparse *p, int x, int wrap)
{
	struct mnode *m = &p->nodes[x];
	static const enum core_tag leaf[] = {
		[M_MI] = CORE_TAG_MI,
		[M_MN] = CORE_TAG_MN,
		[M_MO] = CORE_TAG_MO,
		[M_MTEXT] = CORE_TAG_MTEXT,
	};
	static const enum core_tag two[] = {
		[M_SUP] = CORE_TAG_MSUP,
		[M_SUB] = CORE_TAG_MSUB,
		[M_SUBSUP] = CORE_TAG_MSUBSUP,
		[M_FRAC] = CORE_TAG_MFRAC,
		[M_ROOT] = CORE_TAG_MROOT,
		[M_OVER] = CORE_TAG_MOVER,
		[M_UNDER] = CORE_TAG_MUNDER,
	};

	switch (m->kind) {
	case M_MI:
	case M_MN:
	case M_MO:
	case M_MTEXT:
		mml_leaf(t, p, leaf[m->kind], x);
		break;
	case M_ROW:
		if (row_count(p, x) == 1) {
			mml(t, p, m->first, wrap);
		} else if (wrap) {
			core_html_elem(t->h, CORE_TAG_MROW, NULL);
			mml_kids(t, p, x);
			core_html_pop(t->h);
		} else
			mml_kids(t, p, x);
		break;
	case M_SQRT:
		core_html_elem(t->h, CORE_TAG_MSQRT, NULL);
		mml(t, p, m->a, 0);
		core_html_pop(t->h);
		break;
	case M_ROOT: /* radicand first, then the index */
	case M_FRAC:
	case M_OVER:
	case M_UNDER:
	case M_SUP:
	case M_SUB:
		core_html_elem(t->h, two[m->kind], NULL);
		mml(t, p, m->a, 1);
		mml(t, p, m->b, 1);
		core_html_pop(t->h);
		break;
	case M_SUBSUP:
		core_html_elem(t->h, CORE_TAG_MSUBSUP, NULL);
		mml(t, p, m->a, 1);
		mml(t, p, m->b, 1);
		mml(t, p, m->c, 1);
		core_html_pop(t->h);
		break;
	}
}

/* ---- Unicode text ---- */

/* Superscript and subscript forms of the characters that have one. */
static long
script_cp(char c, int sup)
{
	static const long supd[] = { 0x2070, 0xb9, 0xb2, 0xb3, 0x2074, 0x2075,
		0x2076, 0x2077, 0x2078, 0x2079 };
	static const char subl[] = "aehijklmnoprstuvx";
	static const long subc[] = { 0x2090, 0x2091, 0x2095, 0x1d62, 0x2c7c,
		0x2096, 0x2097, 0x2098, 0x2099, 0x2092, 0x209a, 0x1d63, 0x209b,
		0x209c, 0x1d64, 0x1d65, 0x2093 };
	const char *q;

	if (is_digit(c))
		return sup ? supd[c - '0'] : 0x2080 + (c - '0');
	switch (c) {
	case '+':
		return sup ? 0x207a : 0x208a;
	case '-':
		return sup ? 0x207b : 0x208b;
	case '=':
		return sup ? 0x207c : 0x208c;
	case '(':
		return sup ? 0x207d : 0x208d;
	case ')':
		return sup ? 0x207e : 0x208e;
	}
	if (sup && c == 'n')
		return 0x207f;
	if (sup && c == 'i')
		return 0x2071;
	if (!sup && c != '\0' && (q = strchr(subl, c)) != NULL)
		return subc[q - subl];
	return 0;
}

static void mplain(struct mparse *, int x, struct core_buf *);

/* Appends node x as text, in parentheses unless it is one leaf. */
static void
mplain_group(struct mparse *p, int x, struct core_buf *b)
{
	struct mnode *m = &p->nodes[x];
	size_t start = b->len;

	if (m->kind == M_ROW && row_count(p, x) == 1)
		x = m->first, m = &p->nodes[x];
	mplain(p, x, b);
	if (m->kind <= M_MTEXT || b->len - start <= 1)
		return;
	/* Wrap what was just written. */
	{
		char *inner = core_xstrndup(b->ptr + start, b->len - start);

		b->len = start;
		core_buf_putc(b, '(');
		core_buf_puts(b, inner);
		core_buf_putc(b, ')');
		free(inner);
	}
}

/*
 * A script: as super- or subscript characters when all of its text has
 * them ("x²", "xᵢ"), else "^" or "_" and the text.
 */
static void
mplain_script(struct mparse *p, int x, int sup, struct core_buf *b)
{
	struct core_buf s = CORE_BUF_INIT;
	const char *q;
	size_t k;
	int ok = 1;

	mplain(p, x, &s);
	q = core_buf_cstr(&s);
	/* U+2212 MINUS SIGN counts as '-'.  "x_{exp}" reads better as
	 * "x_exp" than as "xₑₓₚ": letters only alone. */
	for (k = 0; k < s.len; k++) {
		if (s.len > 1 && is_alpha(q[k]) && !(sup && q[k] == 'n'))
			ok = 0;
		if (s.len - k >= 3 && memcmp(q + k, "\xe2\x88\x92", 3) == 0) {
			k += 2;
			continue;
		}
		if (script_cp(q[k], sup) == 0)
			ok = 0;
	}
	if (ok && s.len > 0) {
		for (k = 0; k < s.len; k++) {
			if (s.len - k >= 3 &&
			    memcmp(q + k, "\xe2\x88\x92", 3) == 0) {
				put_cp(b, sup ? 0x207b : 0x208b);
				k += 2;
			} else
				put_cp(b, script_cp(q[k], sup));
		}
	} else {
		core_buf_putc(b, sup ? '^' : '_');
		for (k = 0; k < s.len && (is_alpha(q[k]) || is_digit(q[k]));
		     k++)
			;
		if (k == s.len) /* "x_exp", not "x_(exp)" */
			core_buf_put(b, q, s.len);
		else
			mplain_group(p, x, b);
	}
	core_buf_free(&s);
}

/* 1 for the relations and binary operators spaced out in text. */
static int
spaced_op(struct mparse *p, int x)
{
	struct mnode *m = &p->nodes[x];
	const char *s = p->txt.ptr + m->off;
	utf8proc_int32_t cp;

	if (m->kind != M_MO || m->len == 0)
		return 0;
	if (utf8proc_iterate((const utf8proc_uint8_t *)s,
		(utf8proc_ssize_t)m->len, &cp) != (utf8proc_ssize_t)m->len)
		return 0;
	if (cp == '=' || cp == '<' || cp == '>' || cp == '+')
		return 1;
	return cp == 0x2212 || cp == 0xd7 || cp == 0xb1 || cp == 0x22c5 ||
	    (cp >= 0x2190 && cp <= 0x21ff) || (cp >= 0x2208 && cp <= 0x220b) ||
	    (cp >= 0x2223 && cp <= 0x2233 && cp != 0x222b) ||
	    (cp >= 0x223c && cp <= 0x22a5) || (cp >= 0x27f5 && cp <= 0x27fa) ||
	    cp == 0x2aaf || cp == 0x2ab0 || cp == 0x2a7d || cp == 0x2a7e;
}

/* 1 for a function name or a number, which need a space from a letter. */
static int
wordlike(struct mparse *p, int x)
{
	struct mnode *m = &p->nodes[x];

	return (m->kind == M_MI && m->len > 1 && m->normal) ||
	    m->kind == M_MN || (m->kind == M_MI && m->len == 1);
}

/* 1 if leaf x is the text lit. */
static int
leaf_is(struct mparse *p, int x, const char *lit)
{
	struct mnode *m = &p->nodes[x];

	return m->kind <= M_MTEXT && m->len == strlen(lit) &&
	    memcmp(p->txt.ptr + m->off, lit, m->len) == 0;
}

/*
 * 1 if an operator after x has no left operand: x is an operator or an
 * opening delimiter, not a closing one ("(-x)" but "f(x) - 1").
 */
static int
opens(struct mparse *p, int x)
{
	static const char *const closers[] = { ")", "]", "|", "!", "%", "}",
		"\xe2\x9f\xa9", "\xe2\x8c\x89", "\xe2\x8c\x8b",
		"\xe2\x80\xb2" };
	size_t i;

	if (p->nodes[x].kind != M_MO)
		return 0;
	for (i = 0; i < sizeof(closers) / sizeof(closers[0]); i++)
		if (leaf_is(p, x, closers[i]))
			return 0;
	return 1;
}

/*
 * \tilde{O} as "Õ": the accent as a combining mark when the base is one
 * character, else the base alone.
 */
static void
mplain_accent(struct mparse *p, int x, struct core_buf *b)
{
	static const long marks[][2] = { { 0x7e, 0x303 }, { 0x5e, 0x302 },
		{ 0xaf, 0x304 }, { 0x2192, 0x20d7 }, { 0x2d9, 0x307 },
		{ 0xa8, 0x308 }, { 0x2c7, 0x30c }, { 0x2d8, 0x306 } };
	struct core_buf base = CORE_BUF_INIT;
	struct mnode *acc = &p->nodes[p->nodes[x].b];
	utf8proc_int32_t cp, bcp;
	size_t i;

	mplain(p, p->nodes[x].a, &base);
	if (base.len > 0 &&
	    utf8proc_iterate((const utf8proc_uint8_t *)base.ptr,
		(utf8proc_ssize_t)base.len,
		&bcp) == (utf8proc_ssize_t)base.len &&
	    utf8proc_iterate((const utf8proc_uint8_t *)p->txt.ptr + acc->off,
		(utf8proc_ssize_t)acc->len, &cp) > 0) {
		for (i = 0; i < sizeof(marks) / sizeof(marks[0]); i++)
			if (marks[i][0] == cp) {
				put_composed(b, core_buf_cstr(&base),
				    marks[i][1]);
				core_buf_free(&base);
				return;
			}
	}
	core_buf_put(b, base.ptr, base.len);
	core_buf_free(&base);
}

static void
mplain(struct mparse *p, int x, struct core_buf *b)
{
	struct mnode *m = &p->nodes[x];
	int k, prev = -1, bin, bin_prev = 0;

	switch (m->kind) {
	case M_MI:
	case M_MN:
	case M_MO:
	case M_MTEXT:
		core_buf_put(b, p->txt.ptr + m->off, m->len);
		break;
	case M_ROW:
		for (k = m->first; k >= 0; prev = k, k = p->nodes[k].next) {
			/*
			 * "a \leq b" as "a ≤ b", "n \log n" as "n log n",
			 * but "-3" and "(-x)" keep their unary minus close.
			 */
			bin = prev >= 0 && p->nodes[k].next >= 0 &&
			    spaced_op(p, k) && !opens(p, prev);
			if (prev >= 0 &&
			    (bin || bin_prev || leaf_is(p, prev, ",") ||
				leaf_is(p, prev, ";") ||
				(wordlike(p, prev) && wordlike(p, k) &&
				    (p->nodes[prev].len > 1 ||
					p->nodes[k].len > 1) &&
				    !(p->nodes[prev].kind == M_MN &&
					p->nodes[k].kind == M_MI &&
					p->nodes[k].len == 1))))
				core_buf_putc(b, ' ');
			bin_prev = bin;
			mplain(p, k, b);
		}
		break;
	case M_SUP:
	case M_SUB:
		mplain(p, m->a, b);
		mplain_script(p, m->b, m->kind == M_SUP, b);
		break;
	case M_SUBSUP:
		mplain(p, m->a, b);
		mplain_script(p, m->b, 0, b);
		mplain_script(p, m->c, 1, b);
		break;
	case M_FRAC:
		mplain_group(p, m->a, b);
		core_buf_putc(b, '/');
		mplain_group(p, m->b, b);
		break;
	case M_SQRT:
		core_buf_puts(b, "√");
		mplain_group(p, m->a, b);
		break;
	case M_ROOT:
		mplain_script(p, m->b, 1, b);
		core_buf_puts(b, "√");
		mplain_group(p, m->a, b);
		break;
	case M_OVER:
		mplain_accent(p, x, b);
		break;
	case M_UNDER:
		mplain(p, m->a, b);
		break;
	}
}

/*
 * Writes the math segment src[0..n) (between its delimiters); whole is
 * the segment with its delimiters, written as literal text when the
 * math cannot be parsed or would nest too deep for the HTML writer.
 */
static void
math_segment(struct tex *t, const char *src, size_t n, const char *whole,
    size_t wn)
{
	struct mparse *p;
	int root;

	if (t->mode == TEX_KEEPMATH) {
		core_buf_put(t->out, whole, wn);
		return;
	}
	p = core_xcalloc(1, sizeof(*p));
	p->s = src;
	p->n = n;
	root = mrow(p, 0);
	if (root < 0 || p->bad || row_count(p, root) == 0 ||
	    (t->mode == TEX_HTML &&
		t->h->depth + 2 * (size_t)p->maxdepth + 4 >= CORE_HTML_DEPTH)) {
		core_buf_put(t->out, whole, wn);
	} else if (t->mode == TEX_HTML) {
		core_html_textn(t->h, t->out->ptr, t->out->len);
		core_buf_reset(t->out);
		core_html_elem(t->h, CORE_TAG_MATH, NULL);
		mml(t, p, root, 0);
		core_html_pop(t->h);
	} else
		mplain(p, root, t->out);
	core_buf_free(&p->txt);
	free(p);
}

/* ------------------------------------------------------------------ */
/* Running text                                                        */
/* ------------------------------------------------------------------ */

/*
 * The end of inline math opened at s[i] ('$' after i), or 0: pandoc's
 * rule, so that prices ("$5 and $10") stay text: the opening '$' is
 * followed by a non-space, the closing one preceded by a non-space and
 * not followed by a digit -- unless the math does not start with one:
 * "$\sim$10" is common in abstracts.  *inner and *innerlen get the math.
 */
static size_t
dollar_end(const char *s, size_t i, size_t n, size_t *inner, size_t *innerlen)
{
	size_t j, lim;
	int dbl = i + 1 < n && s[i + 1] == '$';
	size_t open = i + (dbl ? 2 : 1);

	if (open >= n || is_space(s[open]) || s[open] == '$')
		return 0;
	lim = n - open > MATH_MAX ? open + MATH_MAX : n;
	for (j = open; j < lim; j++) {
		if (s[j] == '\\') {
			j++;
			continue;
		}
		if (s[j] != '$')
			continue;
		if (dbl) {
			if (j + 1 < n && s[j + 1] == '$') {
				*inner = open;
				*innerlen = j - open;
				return j + 2;
			}
			return 0;
		}
		if (is_space(s[j - 1]) ||
		    (is_digit(s[open]) && j + 1 < n && is_digit(s[j + 1])))
			return 0;
		*inner = open;
		*innerlen = j - open;
		return j + 1;
	}
	return 0;
}

/* The end of \( ... \) or \[ ... \] opened at s[i] ('\'). */
static size_t
paren_end(const char *s, size_t i, size_t n, size_t *inner, size_t *innerlen)
{
	char close = s[i + 1] == '(' ? ')' : ']';
	size_t j, lim = n - i > MATH_MAX ? i + MATH_MAX : n;

	for (j = i + 2; j + 1 < lim; j++) {
		if (s[j] != '\\')
			continue;
		if (s[j + 1] == close) {
			*inner = i + 2;
			*innerlen = j - i - 2;
			return j + 2;
		}
		j++;
	}
	return 0;
}

/*
 * The base letter of an accent at s[i..n): "o", "{o}", "{\i}", "\i"
 * (with *used bytes), written to b; 0 if there is none.
 */
static int
accent_base(const char *s, size_t i, size_t n, struct core_buf *b, size_t *used)
{
	size_t j = i;
	int braced = 0;

	if (j < n && s[j] == '{') {
		braced = 1;
		j++;
	}
	if (j < n && is_alpha(s[j])) {
		core_buf_putc(b, s[j]);
		j++;
	} else if (j + 1 < n && s[j] == '\\' &&
	    (s[j + 1] == 'i' || s[j + 1] == 'j') &&
	    (j + 2 >= n || !is_alpha(s[j + 2]))) {
		core_buf_putc(b, s[j + 1]); /* the dot comes back with NFC */
		j += 2;
	} else
		return 0;
	if (braced) {
		while (j < n && s[j] == ' ')
			j++;
		if (j >= n || s[j] != '}')
			return 0;
		j++;
	}
	*used = j - i;
	return 1;
}

/* Appends base and mark composed by NFC ("o" and U+0308 give "ö"). */
static void
put_composed(struct core_buf *out, const char *base, long mark)
{
	struct core_buf b = CORE_BUF_INIT;
	utf8proc_uint8_t *nfc;

	core_buf_puts(&b, base);
	put_cp(&b, mark);
	nfc = utf8proc_NFC((const utf8proc_uint8_t *)core_buf_cstr(&b));
	core_buf_puts(out, nfc != NULL ? (const char *)nfc : b.ptr);
	free(nfc);
	core_buf_free(&b);
}

/*
 * A command in running text at s[i] ('\'); returns the bytes used (at
 * least 1).  Unknown commands are copied as they are.
 */
static size_t
text_command(struct tex *t, const char *s, size_t i, size_t n, int depth)
{
	const char *name = s + i + 1, *u;
	size_t len = cmd_len(s, i + 1, n), used, j, e;
	struct core_buf base = CORE_BUF_INIT;
	const struct sym *sy;
	long mark, cp;

	if (len == 0) {
		core_buf_putc(t->out, '\\');
		return 1;
	}
	j = i + 1 + len;
	if (len == 1 && strchr("%&_$#{}", name[0]) != NULL) {
		core_buf_putc(t->out, name[0]);
		return 2;
	}
	if (len == 1 && strchr("-/@", name[0]) != NULL)
		return 2; /* hyphenation point, italic correction ... */
	if (len == 1 && name[0] == ',') {
		put_cp(t->out, 0x2009);
		return 2;
	}
	if (len == 1 && strchr(" ;:\\", name[0]) != NULL) {
		core_buf_putc(t->out, ' ');
		return 2;
	}
	if ((mark = accent_mark(name, len)) != 0) {
		/* Letter accents (\c, \v) may have a space before the base. */
		e = j;
		if (is_alpha(name[0]))
			while (e < n && s[e] == ' ')
				e++;
		if (accent_base(s, e, n, &base, &used)) {
			put_composed(t->out, core_buf_cstr(&base), mark);
			core_buf_free(&base);
			return e + used - i;
		}
		core_buf_free(&base);
	}
	if (is_alpha(name[0]) && (u = textsym_find(name, len)) != NULL) {
		core_buf_puts(t->out, u);
		/* TeX eats the space after a command word, and "{}". */
		if (j + 1 < n && s[j] == '{' && s[j + 1] == '}')
			j += 2;
		else if (j < n && s[j] == ' ')
			j++;
		return j - i;
	}
	if (is_alpha(name[0]) && depth < TEXT_DEPTH &&
	    (cmd_in(name, len, textarg_cmds) || cmd_is(name, len, "url") ||
		cmd_is(name, len, "href") ||
		cmd_is(name, len, "textsuperscript") ||
		cmd_is(name, len, "textsubscript")) &&
	    j < n && s[j] == '{' && (e = group_end(s, j, n)) != 0) {
		if (cmd_is(name, len, "url")) {
			core_buf_put(t->out, s + j + 1, e - j - 1);
			return e + 1 - i;
		}
		if (cmd_is(name, len, "href")) {
			/* \href{url}{text}: the text. */
			size_t e2;

			if (e + 1 < n && s[e + 1] == '{' &&
			    (e2 = group_end(s, e + 1, n)) != 0) {
				text_run(t, s + e + 2, e2 - e - 2, depth + 1);
				return e2 + 1 - i;
			}
			core_buf_put(t->out, s + j + 1, e - j - 1);
			return e + 1 - i;
		}
		if (cmd_is(name, len, "textsuperscript") ||
		    cmd_is(name, len, "textsubscript")) {
			int sup =
			    name[4] == 's' && name[5] == 'u' && name[6] == 'p';
			size_t k;

			for (k = j + 1; k < e; k++)
				if (script_cp(s[k], sup) == 0)
					break;
			if (k == e && e > j + 1) {
				for (k = j + 1; k < e; k++)
					put_cp(t->out, script_cp(s[k], sup));
				return e + 1 - i;
			}
		}
		text_run(t, s + j + 1, e - j - 1, depth + 1);
		return e + 1 - i;
	}
	if (is_alpha(name[0]) && cmd_in(name, len, decl_cmds)) {
		if (j < n && s[j] == ' ')
			j++;
		return j - i;
	}
	if (is_alpha(name[0]) && cmd_is(name, len, "unicode") &&
	    (cp = unicode_arg(s, j, n, &e)) != 0) {
		put_cp(t->out, cp);
		return e + 1 - i;
	}
	/* Math symbols written outside math ("4.64\times"). */
	if (is_alpha(name[0]) && (sy = sym_find(name, len)) != NULL) {
		if (sy->kind == SYM_FN)
			core_buf_put(t->out, name, len);
		else
			put_cp(t->out, sy->cp);
		if (j + 1 < n && s[j] == '{' && s[j + 1] == '}')
			j += 2;
		return j - i;
	}
	/* Unknown: as it is, the name and its braced arguments included. */
	while (j < n && s[j] == '{' && (e = group_end(s, j, n)) != 0)
		j = e + 1;
	core_buf_put(t->out, s + i, j - i);
	return j - i;
}

/*
 * Converts running text s[0..n) into t.  depth bounds the brace groups
 * and text arguments being converted at once.
 */
static void
text_run(struct tex *t, const char *s, size_t n, int depth)
{
	size_t i = 0, e, in, inlen;
	/* Not inside \text in math: math in text in math ... ends here. */
	int math = depth < TEXT_DEPTH - 2;
	char c;

	while (i < n) {
		c = s[i];
		if (c == '\\' && math && i + 1 < n &&
		    (s[i + 1] == '(' || s[i + 1] == '[') &&
		    (e = paren_end(s, i, n, &in, &inlen)) != 0) {
			math_segment(t, s + in, inlen, s + i, e - i);
			i = e;
		} else if (c == '\\') {
			i += text_command(t, s, i, n, depth);
		} else if (c == '$' && math &&
		    (e = dollar_end(s, i, n, &in, &inlen)) != 0) {
			math_segment(t, s + in, inlen, s + i, e - i);
			i = e;
		} else if (c == '{' && depth < TEXT_DEPTH &&
		    (e = group_end(s, i, n)) != 0) {
			/* A group: its braces only protect case in BibTeX. */
			text_run(t, s + i + 1, e - i - 1, depth + 1);
			i = e + 1;
		} else if (c == '-' && i + 1 < n && s[i + 1] == '-' &&
		    !(i + 2 < n && is_alpha(s[i + 2]) &&
			(i == 0 || is_space(s[i - 1])))) {
			/* "--" en dash, "---" em dash; not "--flag". */
			if (i + 2 < n && s[i + 2] == '-') {
				core_buf_puts(t->out, "—");
				i += 3;
			} else {
				core_buf_puts(t->out, "–");
				i += 2;
			}
		} else if (c == '`' && i + 1 < n && s[i + 1] == '`') {
			core_buf_puts(t->out, "“");
			i += 2;
		} else if (c == '\'' && i + 1 < n && s[i + 1] == '\'') {
			core_buf_puts(t->out, "”");
			i += 2;
		} else if (c == '~' && i > 0 && i + 1 < n &&
		    !is_space(s[i - 1]) && !is_space(s[i + 1]) &&
		    s[i - 1] != '/' && s[i + 1] != '/') {
			/* A tie ("Fig.~1"); "~2%" and URLs keep theirs. */
			put_cp(t->out, 0xa0);
			i++;
		} else {
			core_buf_putc(t->out, c);
			i++;
		}
	}
}

/* ------------------------------------------------------------------ */
/* The interface                                                       */
/* ------------------------------------------------------------------ */

char *
core_tex_plain(const char *s, int keep_math)
{
	struct core_buf b = CORE_BUF_INIT;
	struct tex t = { keep_math ? TEX_KEEPMATH : TEX_PLAIN, &b, NULL };

	if (s == NULL)
		return NULL;
	if (strlen(s) > INPUT_MAX)
		return core_xstrdup(s);
	text_run(&t, s, strlen(s), 0);
	core_buf_putc(&b, '\0'); /* so an empty result is "" too */
	b.len--;
	return core_buf_steal(&b);
}

void
core_html_tex(struct core_html *h, const char *s)
{
	struct core_buf b = CORE_BUF_INIT;
	struct tex t = { TEX_HTML, &b, h };

	if (s == NULL || h->err != CORE_OK)
		return;
	if (strlen(s) > INPUT_MAX) {
		core_html_text(h, s);
		return;
	}
	text_run(&t, s, strlen(s), 0);
	core_html_textn(h, b.ptr, b.len);
	core_buf_free(&b);
}

void
core_md_tex(struct core_buf *b, const char *s)
{
	char *t = core_tex_plain(s, 1);

	if (t != NULL)
		core_md_text(b, t);
	free(t);
}
