/*
 * mail.c -- the accounts module's mail: a message built by hand (RFC 5322
 * headers, RFC 2047 encoded words, RFC 2045 quoted-printable), sent over
 * libcurl's SMTP to the relay weft.conf names; and the summaries of a
 * browser and a network that the sessions list shows.
 *
 * The message body holds single-use tokens, so it is never logged, and
 * libcurl's verbose mode stays off.
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <curl/curl.h>
#include <sodium.h>

#include "core.h"
#include "accounts.h"

/* The mailer's strings: each owned, and wiped when freed. */
enum mail_str {
	MAIL_URL,      /* smtp://host:port or smtps://host:port */
	MAIL_FROM,     /* the From header as configured */
	MAIL_ENVELOPE, /* its addr-spec, for MAIL FROM */
	MAIL_USER,     /* NULL: no AUTH */
	MAIL_PASSWORD,
	MAIL__MAX
};

struct acc_mailer {
	char *s[MAIL__MAX];
	long timeout; /* seconds, the whole exchange */
	int starttls; /* smtp:// must upgrade with STARTTLS */
};

/* ---------------------------------------------------------------- pure */

int
acc_mail_addr(const char *from, char *out, size_t outsz)
{
	const char *s = from, *e;
	size_t n, i;

	if (from == NULL)
		return -1;
	if ((s = strchr(from, '<')) != NULL) {
		s++;
		if ((e = strchr(s, '>')) == NULL || e[1] != '\0')
			return -1;
	} else {
		s = from;
		e = s + strlen(s);
	}
	n = (size_t)(e - s);
	if (n < 3 || n >= outsz || memchr(s, '@', n) == NULL)
		return -1;
	for (i = 0; i < n; i++)
		if ((unsigned char)s[i] <= ' ' || s[i] == 0x7f || s[i] == '<' ||
		    s[i] == '>')
			return -1;
	memcpy(out, s, n);
	out[n] = '\0';
	return 0;
}

static int
printable_ascii(const char *s)
{
	for (; *s != '\0'; s++)
		if ((unsigned char)*s < 0x20 || (unsigned char)*s > 0x7e)
			return 0;
	return 1;
}

static int
has_control(const char *s)
{
	for (; *s != '\0'; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return 1;
	return 0;
}

int
acc_mail_header_text(struct core_buf *b, const char *s)
{
	/* 75 - strlen("=?UTF-8?B?") - strlen("?=") = 63 characters of
	 * base64: 45 bytes of text at most (a multiple of 3). */
	char enc[sodium_base64_ENCODED_LEN(45, sodium_base64_VARIANT_ORIGINAL)];
	size_t len, i, n, k;
	int first = 1;

	len = strlen(s);
	if (has_control(s) || !core_utf8_valid(s, len))
		return -1;
	if (printable_ascii(s)) {
		core_buf_puts(b, s);
		return 0;
	}
	for (i = 0; i < len; i += n) {
		n = len - i < 45 ? len - i : 45;
		/* Back off to the start of a UTF-8 character. */
		while (i + n < len && ((unsigned char)s[i + n] & 0xc0) == 0x80)
			n--;
		k = n;
		sodium_bin2base64(enc, sizeof(enc),
		    (const unsigned char *)s + i, k,
		    sodium_base64_VARIANT_ORIGINAL);
		if (!first)
			core_buf_puts(b, "\r\n ");
		core_buf_printf(b, "=?UTF-8?B?%s?=", enc);
		first = 0;
	}
	return 0;
}

void
acc_mail_qp(struct core_buf *b, const char *body)
{
	static const char hex[] = "0123456789ABCDEF";
	const unsigned char *p = (const unsigned char *)body;
	size_t col = 0;
	char q[4];

	for (; *p != '\0'; p++) {
		int last = p[1] == '\0' || p[1] == '\n' ||
		    (p[1] == '\r' && p[2] == '\n');
		int enc;

		if (*p == '\r' && p[1] == '\n')
			continue;
		if (*p == '\n') {
			core_buf_puts(b, "\r\n");
			col = 0;
			continue;
		}
		enc = *p == '=' || *p >= 0x7f || (*p < 0x20 && *p != '\t') ||
		    ((*p == ' ' || *p == '\t') && last) ||
		    (*p == '.' && col == 0);
		/* A soft break keeps each line at most 76 characters
		 * (75 and the '='). */
		if (col + (enc ? 3 : 1) > (last ? 76u : 75u)) {
			core_buf_puts(b, "=\r\n");
			col = 0;
		}
		if (enc) {
			q[0] = '=';
			q[1] = hex[*p >> 4];
			q[2] = hex[*p & 15];
			q[3] = '\0';
			core_buf_puts(b, q);
			col += 3;
		} else {
			core_buf_putc(b, (char)*p);
			col++;
		}
	}
	if (col > 0)
		core_buf_puts(b, "\r\n");
}

/* The From header: "Name <addr>" with Name quoted or encoded. */
static int
from_header(struct core_buf *b, const char *from)
{
	char addr[ACC_EMAIL_MAX + 1], *name;
	const char *lt = strchr(from, '<');
	size_t n;
	int rc = 0;

	if (acc_mail_addr(from, addr, sizeof(addr)) != 0)
		return -1;
	if (lt == NULL) {
		core_buf_puts(b, addr);
		return 0;
	}
	n = (size_t)(lt - from);
	while (n > 0 && from[n - 1] == ' ')
		n--;
	name = core_xasprintf("%.*s", (int)n, from);
	if (*name == '\0')
		core_buf_puts(b, "");
	else if (printable_ascii(name)) {
		const char *c;

		core_buf_putc(b, '"');
		for (c = name; *c != '\0'; c++) {
			if (*c == '"' || *c == '\\')
				core_buf_putc(b, '\\');
			core_buf_putc(b, *c);
		}
		core_buf_puts(b, "\" ");
	} else if (acc_mail_header_text(b, name) == 0)
		core_buf_puts(b, " ");
	else
		rc = -1;
	free(name);
	if (rc == 0)
		core_buf_printf(b, "<%s>", addr);
	return rc;
}

int
acc_mail_build(struct core_buf *b, const char *from, const char *to,
    const char *subject, const char *body, long long t, const char *msgid_left)
{
	return acc_mail_build_digest(b, from, to, subject, body, NULL, NULL, t,
	    msgid_left);
}

int
acc_mail_build_digest(struct core_buf *b, const char *from, const char *to,
    const char *subject, const char *text, const char *html,
    const char *unsubscribe, long long t, const char *msgid_left)
{
	char date[32], addr[ACC_EMAIL_MAX + 1], chk[ACC_EMAIL_MAX + 1];
	const char *domain;
	size_t start = b->len;

	if (acc_mail_addr(to, chk, sizeof(chk)) != 0 || strcmp(chk, to) != 0 ||
	    acc_mail_addr(from, addr, sizeof(addr)) != 0 ||
	    has_control(msgid_left) || strchr(msgid_left, '>') != NULL ||
	    strchr(msgid_left, '"') != NULL)
		return -1;
	if (unsubscribe != NULL &&
	    (!printable_ascii(unsubscribe) || strchr(unsubscribe, '>') != NULL))
		return -1;
	domain = strrchr(addr, '@') + 1;
	core_date_rfc822(date, (int64_t)t); /* RFC 5322 keeps 822's form */
	core_buf_printf(b, "Date: %s\r\nFrom: ", date);
	if (from_header(b, from) != 0)
		goto bad;
	core_buf_printf(b, "\r\nTo: %s\r\nSubject: ", to);
	if (acc_mail_header_text(b, subject) != 0)
		goto bad;
	core_buf_printf(b,
	    "\r\nMessage-ID: <%s@%s>\r\n"
	    "MIME-Version: 1.0\r\n",
	    msgid_left, domain);
	/* RFC 8058: one click unsubscribes, by a POST without a session. */
	if (unsubscribe != NULL)
		core_buf_printf(b,
		    "List-Unsubscribe: <%s>\r\n"
		    "List-Unsubscribe-Post: List-Unsubscribe=One-Click\r\n",
		    unsubscribe);
	if (html == NULL) {
		core_buf_puts(b,
		    "Content-Type: text/plain; charset=UTF-8\r\n"
		    "Content-Transfer-Encoding: quoted-printable\r\n"
		    "Auto-Submitted: auto-generated\r\n"
		    "\r\n");
		acc_mail_qp(b, text);
		return 0;
	}
	/* "=_" never occurs in quoted-printable text: a safe boundary. */
	core_buf_printf(b,
	    "Content-Type: multipart/alternative; boundary=\"=_weft_%s\"\r\n"
	    "Auto-Submitted: auto-generated\r\n"
	    "\r\n"
	    "--=_weft_%s\r\n"
	    "Content-Type: text/plain; charset=UTF-8\r\n"
	    "Content-Transfer-Encoding: quoted-printable\r\n"
	    "\r\n",
	    msgid_left, msgid_left);
	acc_mail_qp(b, text);
	core_buf_printf(b,
	    "\r\n--=_weft_%s\r\n"
	    "Content-Type: text/html; charset=UTF-8\r\n"
	    "Content-Transfer-Encoding: quoted-printable\r\n"
	    "\r\n",
	    msgid_left);
	acc_mail_qp(b, html);
	core_buf_printf(b, "\r\n--=_weft_%s--\r\n", msgid_left);
	return 0;
bad:
	b->len = start;
	if (b->ptr != NULL)
		b->ptr[start] = '\0';
	return -1;
}

/* 1 when s (case-insensitively) contains w. */
static int
has(const char *s, const char *w)
{
	size_t n = strlen(w);

	for (; *s != '\0'; s++)
		if (strncasecmp(s, w, n) == 0)
			return 1;
	return 0;
}

void
acc_agent_summary(const char *ua, char out[80])
{
	static const struct {
		const char *key, *name;
	} browsers[] = {
		{ "Edg/", "Edge" }, { "OPR/", "Opera" },
		{ "Firefox/", "Firefox" }, { "Chromium/", "Chromium" },
		{ "Chrome/", "Chrome" }, { "Safari/", "Safari" },
		{ "curl/", "curl" }, { "Wget/", "Wget" },
	},
	  systems[] = {
		  { "Android", "Android" }, { "iPhone", "iOS" },
		  { "iPad", "iPadOS" }, { "Windows", "Windows" },
		  { "Mac OS X", "macOS" }, { "CrOS", "ChromeOS" },
		  { "Linux", "Linux" },
	  };
	const char *b = NULL, *o = NULL;
	size_t i;

	if (ua != NULL) {
		for (i = 0;
		     b == NULL && i < sizeof(browsers) / sizeof(*browsers); i++)
			if (has(ua, browsers[i].key))
				b = browsers[i].name;
		for (i = 0; o == NULL && i < sizeof(systems) / sizeof(*systems);
		     i++)
			if (has(ua, systems[i].key))
				o = systems[i].name;
	}
	if (b == NULL && o == NULL)
		snprintf(out, 80, "Unknown browser");
	else if (o == NULL)
		snprintf(out, 80, "%s", b);
	else
		snprintf(out, 80, "%s on %s", b != NULL ? b : "A browser", o);
}

void
acc_network_summary(const char *addr, char out[64])
{
	unsigned char ip[16];
	char buf[INET6_ADDRSTRLEN]; /* 46: room for "/64" in out */

	out[0] = '\0';
	if (addr == NULL)
		return;
	if (inet_pton(AF_INET, addr, ip) == 1) {
		snprintf(out, 64, "%u.%u.%u.0/24", ip[0], ip[1], ip[2]);
		return;
	}
	if (inet_pton(AF_INET6, addr, ip) == 1) {
		memset(ip + 8, 0, 8);
		if (inet_ntop(AF_INET6, ip, buf, sizeof(buf)) != NULL)
			snprintf(out, 64, "%s/64", buf);
	}
}

/* ---------------------------------------------------------------- sender */

enum core_err
acc_mailer_new(const struct core_conf *conf, struct acc_mailer **mp)
{
	const char *url = core_conf_get(conf, "smtp_url", "");
	const char *from = core_conf_get(conf, "smtp_from", "");
	const char *user = core_conf_get(conf, "smtp_user", "");
	const char *tls = core_conf_get(conf, "smtp_starttls", "off");
	char addr[ACC_EMAIL_MAX + 1];
	struct acc_mailer *m;

	*mp = NULL;
	if (*url == '\0') {
		core_log(CORE_LOG_WARN, "mail",
		    "smtp_url is not set: no mail is sent (sign-up, "
		    "verification and password reset say so)");
		return CORE_OK;
	}
	if ((strncmp(url, "smtp://", 7) != 0 &&
		strncmp(url, "smtps://", 8) != 0) ||
	    has_control(url)) {
		core_log(CORE_LOG_ERROR, "mail",
		    "smtp_url must start with smtp:// or smtps://");
		return CORE_EINPUT;
	}
	if (acc_mail_addr(from, addr, sizeof(addr)) != 0 || has_control(from)) {
		core_log(CORE_LOG_ERROR, "mail",
		    "smtp_from must be an address, or Name <address>");
		return CORE_EINPUT;
	}
	m = core_xcalloc(1, sizeof(*m));
	m->s[MAIL_URL] = core_xstrdup(url);
	m->s[MAIL_FROM] = core_xstrdup(from);
	m->s[MAIL_ENVELOPE] = core_xstrdup(addr);
	m->timeout = core_conf_int(conf, "smtp_timeout", 10);
	if (m->timeout < 1 || m->timeout > 120)
		m->timeout = 10;
	m->starttls = strcmp(tls, "on") == 0;
	if (*user != '\0') {
		m->s[MAIL_USER] = core_xstrdup(user);
		if (core_conf_secret(conf, "smtp_password_file",
			&m->s[MAIL_PASSWORD]) != CORE_OK) {
			acc_mailer_free(m);
			return CORE_EINPUT;
		}
	}
	*mp = m;
	return CORE_OK;
}

void
acc_mailer_free(struct acc_mailer *m)
{
	size_t i;

	if (m == NULL)
		return;
	for (i = 0; i < MAIL__MAX; i++)
		if (m->s[i] != NULL) {
			sodium_memzero(m->s[i], strlen(m->s[i]));
			free(m->s[i]);
		}
	free(m);
}

struct upload {
	const char *p;
	size_t left;
};

static size_t
reader(char *dst, size_t size, size_t nmemb, void *arg)
{
	struct upload *u = arg;
	size_t n = size * nmemb;

	if (n > u->left)
		n = u->left;
	memcpy(dst, u->p, n);
	u->p += n;
	u->left -= n;
	return n;
}

/* Sends the message msg to to with mailer m (NULL: mail is off). */
static enum core_err
smtp_send(const struct acc_mailer *m, struct core_metrics *metrics,
    const char *to, const struct core_buf *msg)
{
	struct curl_slist *rcpt = NULL;
	char *env = NULL, *envto = NULL;
	struct upload u;
	enum core_err er = CORE_EUPSTREAM;
	CURL *c = NULL;
	CURLcode cc;

	if ((c = curl_easy_init()) == NULL)
		goto out;
	env = core_xasprintf("<%s>", m->s[MAIL_ENVELOPE]);
	envto = core_xasprintf("<%s>", to);
	rcpt = curl_slist_append(NULL, envto);
	u.p = msg->ptr;
	u.left = msg->len;
	curl_easy_setopt(c, CURLOPT_URL, m->s[MAIL_URL]);
	curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "smtp,smtps");
	curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(c, CURLOPT_TIMEOUT, m->timeout);
	curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT,
	    m->timeout < 5 ? m->timeout : 5L);
	curl_easy_setopt(c, CURLOPT_MAIL_FROM, env);
	curl_easy_setopt(c, CURLOPT_MAIL_RCPT, rcpt);
	curl_easy_setopt(c, CURLOPT_UPLOAD, 1L);
	curl_easy_setopt(c, CURLOPT_READFUNCTION, reader);
	curl_easy_setopt(c, CURLOPT_READDATA, &u);
	curl_easy_setopt(c, CURLOPT_INFILESIZE_LARGE, (curl_off_t)msg->len);
	if (m->starttls)
		curl_easy_setopt(c, CURLOPT_USE_SSL, (long)CURLUSESSL_ALL);
	if (m->s[MAIL_USER] != NULL) {
		curl_easy_setopt(c, CURLOPT_USERNAME, m->s[MAIL_USER]);
		if (m->s[MAIL_PASSWORD] != NULL)
			curl_easy_setopt(c, CURLOPT_PASSWORD,
			    m->s[MAIL_PASSWORD]);
	}
	if ((cc = curl_easy_perform(c)) != CURLE_OK) {
		/* curl's message names the relay and the step, not the
		 * message. */
		core_log(CORE_LOG_ERROR, "mail", "not sent: %s",
		    curl_easy_strerror(cc));
		goto out;
	}
	core_log(CORE_LOG_INFO, "mail", "sent (%zu bytes)", msg->len);
	er = CORE_OK;
out:
	if (er != CORE_OK)
		core_metrics_count(metrics, CORE_METRIC_MAIL_FAILED);
	curl_slist_free_all(rcpt);
	curl_easy_cleanup(c);
	free(env);
	free(envto);
	return er;
}

enum core_err
acc_mail_send_digest(struct core_ctx *ctx, const char *to, const char *subject,
    const char *text, const char *html, const char *unsubscribe)
{
	const struct acc_state *st = ctx->mod_state;
	const struct acc_mailer *m = st != NULL ? st->mailer : NULL;
	struct core_buf msg = CORE_BUF_INIT;
	unsigned char rnd[16];
	char idl[33];
	enum core_err er = CORE_EUPSTREAM;

	if (m == NULL) {
		core_log(CORE_LOG_WARN, "mail",
		    "not sent: smtp_url is not set");
		core_metrics_count(ctx->metrics, CORE_METRIC_MAIL_FAILED);
		return CORE_EUPSTREAM;
	}
	randombytes_buf(rnd, sizeof(rnd));
	sodium_bin2hex(idl, sizeof(idl), rnd, sizeof(rnd));
	if (acc_mail_build_digest(&msg, m->s[MAIL_FROM], to, subject, text,
		html, unsubscribe, (long long)time(NULL), idl) != 0) {
		core_log(CORE_LOG_ERROR, "mail", "not sent: unusable header");
		core_metrics_count(ctx->metrics, CORE_METRIC_MAIL_FAILED);
		goto out;
	}
	er = smtp_send(m, ctx->metrics, to, &msg);
out:
	/* The message holds a token (a link). */
	if (msg.ptr != NULL)
		sodium_memzero(msg.ptr, msg.len);
	core_buf_free(&msg);
	return er;
}

enum core_err
acc_mail_send(struct core_req *req, const char *to, const char *subject,
    const char *body)
{
	return acc_mail_send_digest(core_req_ctx(req), to, subject, body, NULL,
	    NULL);
}
