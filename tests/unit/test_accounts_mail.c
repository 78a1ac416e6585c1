/*
 * test_accounts_mail.c -- the accounts module's mail encoders: the From
 * address, RFC 2047 header words, quoted-printable bodies, the whole
 * message, and the sessions list's browser and network summaries.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "t.h"
#include "core.h"
#include "../modules/accounts/accounts.h"

static const char *
hdr(const char *in)
{
	static struct core_buf b = CORE_BUF_INIT;

	core_buf_reset(&b);
	if (acc_mail_header_text(&b, in) != 0)
		return NULL;
	return core_buf_cstr(&b);
}

static const char *
qp(const char *in)
{
	static struct core_buf b = CORE_BUF_INIT;

	core_buf_reset(&b);
	acc_mail_qp(&b, in);
	return core_buf_cstr(&b);
}

static void
addresses(void)
{
	char out[ACC_EMAIL_MAX + 1];

	T_EQ(acc_mail_addr("noreply@example.org", out, sizeof(out)), 0,
	    "a bare address");
	T_STREQ(out, "noreply@example.org", "... is itself");
	T_EQ(acc_mail_addr("weft <noreply@example.org>", out, sizeof(out)), 0,
	    "Name <address>");
	T_STREQ(out, "noreply@example.org", "... gives the address");
	T_EQ(acc_mail_addr("weft <a b@example.org>", out, sizeof(out)), -1,
	    "a space in the address");
	T_EQ(acc_mail_addr("weft <a@example.org> x", out, sizeof(out)), -1,
	    "text after '>'");
	T_EQ(acc_mail_addr("a@example.org\r\nBcc: x@y.z", out, sizeof(out)), -1,
	    "CR LF (header injection)");
	T_EQ(acc_mail_addr("nobody", out, sizeof(out)), -1, "no '@'");
	T_EQ(acc_mail_addr(NULL, out, sizeof(out)), -1, "NULL");
}

static void
header_words(void)
{
	const char *s;
	struct core_buf b = CORE_BUF_INIT;
	char long_utf8[200];
	size_t i;

	T_STREQ(hdr("Reset your weft password"), "Reset your weft password",
	    "ASCII passes unchanged");
	T_STREQ(hdr("Caf\xc3\xa9"),
	    "=?UTF-8?B?Q2Fmw6k=?=", "UTF-8 becomes one B word");
	T_OK(hdr("a\r\nBcc: x@y.z") == NULL, "CR LF refused");
	T_OK(hdr("tab\there") == NULL, "control characters refused");
	T_OK(hdr("bad \xc3") == NULL, "invalid UTF-8 refused");
	T_EQ(acc_mail_header_text(&b, "x\ny"), -1, "LF refused ...");
	T_EQ(b.len, 0, "... and nothing appended");
	/* 60 two-byte characters: 120 bytes, words of 44, 44 and 32 bytes
	 * (45 would cut a character in two), 72 characters at most. */
	for (i = 0; i < 60; i++)
		memcpy(long_utf8 + 2 * i, "\xc3\xa9", 2);
	long_utf8[120] = '\0';
	s = hdr(long_utf8);
	T_OK(s != NULL, "a long UTF-8 subject encodes");
	T_STREQ(s,
	    "=?UTF-8?B?"
	    "w6nDqcOpw6nDqcOpw6nDqcOpw6nDqcOpw6nDqcOpw6nDqcOpw6nDqcOpw6k=?=\r\n"
	    " =?UTF-8?B?"
	    "w6nDqcOpw6nDqcOpw6nDqcOpw6nDqcOpw6nDqcOpw6nDqcOpw6nDqcOpw6k=?=\r\n"
	    " =?UTF-8?B?w6nDqcOpw6nDqcOpw6nDqcOpw6nDqcOpw6nDqcOpw6k=?=",
	    "folded words of whole characters, each at most 75 long");
	core_buf_free(&b);
}

static void
quoted_printable(void)
{
	const char *s;
	char line[200];

	T_STREQ(qp("Hello,\nworld\n"), "Hello,\r\nworld\r\n",
	    "lines end in CRLF");
	T_STREQ(qp("a=b"), "a=3Db\r\n", "'=' is encoded, a last CRLF added");
	T_STREQ(qp("caf\xc3\xa9\r\n"), "caf=C3=A9\r\n", "UTF-8 bytes encoded");
	T_STREQ(qp("end \nx\t\n"), "end=20\r\nx=09\r\n",
	    "trailing space and tab encoded");
	T_STREQ(qp(".\n..x\n"), "=2E\r\n=2E.x\r\n",
	    "a leading dot is encoded (no SMTP end of data)");
	T_STREQ(qp("a\x01"
		   "b"),
	    "a=01b\r\n", "control bytes encoded");
	memset(line, 'x', 100);
	line[100] = '\0';
	s = qp(line);
	T_STREQ(s,
	    "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
	    "xxxxxxxxx=\r\n"
	    "xxxxxxxxxxxxxxxxxxxxxxxxx\r\n",
	    "soft break: no line over 76 characters");
	memset(line, 'x', 74);
	strcpy(line + 74, "==");
	T_STREQ(qp(line),
	    "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
	    "xxxxxxxx=\r\n"
	    "=3D=3D\r\n",
	    "an escape is never split by a soft break");
}

static void
message(void)
{
	struct core_buf b = CORE_BUF_INIT;
	const char *m;

	T_EQ(acc_mail_build(&b, "weft <noreply@weft.test>", "ann@example.org",
		 "Confirm your email address", "Hi =)\nhttps://x/?token=abc\n",
		 1796157000LL, "0123abcd"),
	    0, "a message builds");
	m = core_buf_cstr(&b);
	T_STREQ(m,
	    "Date: Tue, 01 Dec 2026 20:30:00 +0000\r\n"
	    "From: \"weft\" <noreply@weft.test>\r\n"
	    "To: ann@example.org\r\n"
	    "Subject: Confirm your email address\r\n"
	    "Message-ID: <0123abcd@weft.test>\r\n"
	    "MIME-Version: 1.0\r\n"
	    "Content-Type: text/plain; charset=UTF-8\r\n"
	    "Content-Transfer-Encoding: quoted-printable\r\n"
	    "Auto-Submitted: auto-generated\r\n"
	    "\r\n"
	    "Hi =3D)\r\n"
	    "https://x/?token=3Dabc\r\n",
	    "headers, blank line, quoted-printable body");
	core_buf_reset(&b);
	T_EQ(acc_mail_build(&b,
		 "W\xc3\xa9"
		 "ft <a@b.c>",
		 "x@y.z", "S", "", 0, "1"),
	    0, "a UTF-8 display name ...");
	T_CONTAINS(core_buf_cstr(&b), "From: =?UTF-8?B?V8OpZnQ=?= <a@b.c>\r\n",
	    "... is encoded");
	core_buf_reset(&b);
	T_EQ(acc_mail_build(&b, "a@b.c", "x@y.z\r\nBcc: e@vil.org", "S", "", 0,
		 "1"),
	    -1, "a To with CR LF is refused");
	T_EQ(acc_mail_build(&b, "a@b.c", "x@y.z", "S\r\nBcc: e@vil.org", "", 0,
		 "1"),
	    -1, "a Subject with CR LF is refused");
	T_EQ(b.len, 0, "... leaving nothing behind");
	T_EQ(acc_mail_build(&b, "\"x\\\"y\" <a@b.c>", "x@y.z", "S", "", 0, "1"),
	    0, "quotes in the display name ...");
	T_CONTAINS(core_buf_cstr(&b), "From: \"\\\"x\\\\\\\"y\\\"\" <a@b.c>",
	    "... are escaped");
	core_buf_free(&b);
}

static void
summaries(void)
{
	char a[80], n[64];

	acc_agent_summary("Mozilla/5.0 (X11; Linux x86_64; rv:128.0) "
			  "Gecko/20100101 Firefox/128.0",
	    a);
	T_STREQ(a, "Firefox on Linux", "Firefox on Linux");
	acc_agent_summary("Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac "
			  "OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
			  "Version/17.5 Mobile/15E148 Safari/604.1",
	    a);
	T_STREQ(a, "Safari on iOS", "Safari on iOS");
	acc_agent_summary("Mozilla/5.0 (Windows NT 10.0; Win64; x64) "
			  "AppleWebKit/537.36 (KHTML, like Gecko) "
			  "Chrome/126.0 Safari/537.36 Edg/126.0",
	    a);
	T_STREQ(a, "Edge on Windows", "Edge, not Chrome or Safari");
	acc_agent_summary("curl/7.88.1", a);
	T_STREQ(a, "curl", "curl");
	acc_agent_summary(NULL, a);
	T_STREQ(a, "Unknown browser", "no User-Agent");
	acc_agent_summary("<script>", a);
	T_STREQ(a, "Unknown browser", "nothing of the header is copied");

	acc_network_summary("203.0.113.77", n);
	T_STREQ(n, "203.0.113.0/24", "IPv4: the /24");
	acc_network_summary("2001:db8:1:2:3:4:5:6", n);
	T_STREQ(n, "2001:db8:1:2::/64", "IPv6: the /64");
	acc_network_summary("unix:", n);
	T_STREQ(n, "", "not an address");
	acc_network_summary(NULL, n);
	T_STREQ(n, "", "no address");
}

/* Issue 21: a digest is multipart text + HTML with RFC 8058 headers. */
static void
digest_message(void)
{
	struct core_buf b = CORE_BUF_INIT;
	const char *m;

	T_EQ(acc_mail_build_digest(&b, "weft <noreply@example.org>",
		 "a@example.org", "Your daily weft digest", "text = 1\n",
		 "<p>html</p>\n",
		 "https://example.org/account/unsubscribe?token=x", 0, "abc"),
	    0, "a digest builds");
	m = core_buf_cstr(&b);
	T_OK(strstr(m,
		 "\r\nList-Unsubscribe: "
		 "<https://example.org/account/unsubscribe?token=x>\r\n") !=
		NULL,
	    "List-Unsubscribe");
	T_OK(strstr(m,
		 "\r\nList-Unsubscribe-Post: List-Unsubscribe=One-Click"
		 "\r\n") != NULL,
	    "List-Unsubscribe-Post");
	T_OK(strstr(m,
		 "Content-Type: multipart/alternative; "
		 "boundary=\"=_weft_abc\"\r\n") != NULL,
	    "multipart/alternative");
	T_OK(strstr(m, "\r\n--=_weft_abc\r\nContent-Type: text/plain") != NULL,
	    "a text part");
	T_OK(strstr(m, "\r\n--=_weft_abc\r\nContent-Type: text/html") != NULL,
	    "an HTML part");
	T_OK(strstr(m, "text =3D 1") != NULL, "quoted-printable parts");
	T_OK(strstr(m, "\r\n--=_weft_abc--\r\n") != NULL, "the end boundary");
	core_buf_reset(&b);
	T_EQ(acc_mail_build_digest(&b, "noreply@example.org", "a@example.org",
		 "s", "t", "h", "https://x.example/\r\nBcc: y@z.example", 0,
		 "abc"),
	    -1, "an unsubscribe URL with CR LF is refused");
	core_buf_reset(&b);
	T_EQ(acc_mail_build_digest(&b, "noreply@example.org", "a@example.org",
		 "s", "t", NULL, NULL, 0, "abc"),
	    0, "without HTML or unsubscribe ...");
	T_OK(strstr(core_buf_cstr(&b), "List-Unsubscribe") == NULL &&
		strstr(core_buf_cstr(&b), "Content-Type: text/plain") != NULL,
	    "... a plain message as before");
	core_buf_free(&b);
}

int
main(void)
{
	if (sodium_init() < 0)
		return 1;
	addresses();
	header_words();
	quoted_printable();
	message();
	summaries();
	digest_message();
	return T_DONE();
}
