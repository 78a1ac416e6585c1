/*
 * render.c -- view models to HTML, markdown and JSON, the page shell of
 * the account pages, and the SSI fragments.  Modules never include each
 * other, so the shell repeats the site's header and footer (same
 * stylesheet, same links) rather than calling the pages module's layout.
 * Every byte goes through core's escaping writers.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "accounts.h"

const enum core_rep acc_offers[3] = { CORE_REP_HTML, CORE_REP_MD,
	CORE_REP_JSON };

/* ---------------------------------------------------------------- inputs */

static void
hidden(struct core_html *h, const char *name, const char *value)
{
	if (value == NULL)
		return;
	core_html_elem(h, CORE_TAG_INPUT,
	    (const struct core_attr[]){ A(TYPE, "hidden"), A(NAME, name),
		A(VALUE, value), AEND });
}

static void
submit(struct core_html *h, const char *cls, const char *text)
{
	core_html_elemtext(h, CORE_TAG_BUTTON,
	    (const struct core_attr[]){ A(TYPE, "submit"), A(CLASS, cls),
		AEND },
	    text);
}

/* The button of a follow form, which says whether one follows. */
static void
follow_button(struct core_html *h, int following)
{
	submit(h,
	    following ? "button follow-button following"
		      : "button button-primary follow-button",
	    following ? "Following — unfollow" : "Follow");
}

/* ---------------------------------------------------------------- shell */

/* The signed-in account links: the header slot and the nav fragment. */
static void
account_links(struct core_html *h, const struct acc_session *s)
{
	if (s == NULL || !s->valid) {
		core_html_elemtext(h, CORE_TAG_A,
		    (const struct core_attr[]){ A(CLASS, "signin"),
			A(HREF, "/signin"), AEND },
		    "Sign in");
		return;
	}
	core_html_elemtext(h, CORE_TAG_A,
	    (const struct core_attr[]){ A(HREF, "/feed"), AEND }, "Feed");
	core_html_elemtext(h, CORE_TAG_A,
	    (const struct core_attr[]){ A(HREF, "/account"), A(TITLE, s->email),
		AEND },
	    "Account");
	core_html_elem(h, CORE_TAG_FORM,
	    (const struct core_attr[]){ A(METHOD, "post"),
		A(ACTION, "/signout"), A(CLASS, "signout"), AEND });
	hidden(h, "csrf", s->csrf);
	submit(h, "button", "Sign out");
	core_html_pop(h); /* form */
}

/* The header's account slot, filled directly: this module knows who is
 * signed in. */
static void
account_slot(struct core_html *h, const void *arg)
{
	account_links(h, arg);
}

/*
 * The page shell: core's site header and footer around the account
 * pages, so they look like the rest of the site.
 */
static void
shell_open(struct core_html *h, const char *title, const struct acc_session *s,
    const char *main_class)
{
	core_html_doctype(h);
	core_html_elem(h, CORE_TAG_HTML,
	    (const struct core_attr[]){ A(LANG, "en"), AEND });
	core_html_elem(h, CORE_TAG_HEAD, NULL);
	core_html_elem(h, CORE_TAG_META,
	    (const struct core_attr[]){ A(CHARSET, "utf-8"), AEND });
	core_html_elem(h, CORE_TAG_META,
	    (const struct core_attr[]){ A(NAME, "viewport"),
		A(CONTENT, "width=device-width, initial-scale=1"), AEND });
	core_html_elem(h, CORE_TAG_META,
	    (const struct core_attr[]){ A(NAME, "robots"),
		A(CONTENT, "noindex"), AEND });
	core_html_elem(h, CORE_TAG_TITLE, NULL);
	core_html_textf(h, "%s · weft", title);
	core_html_pop(h);
	core_site_head_links(h);
	core_html_pop(h); /* head */
	core_html_elem(h, CORE_TAG_BODY, NULL);

	core_site_header(h, account_slot, s);
	core_html_elem(h, CORE_TAG_MAIN,
	    (const struct core_attr[]){ A(ID, "main"), A(CLASS, main_class),
		AEND });
}

static void
shell_close(struct core_html *h)
{
	core_html_pop(h); /* main */
	core_site_footer(h);
	core_html_close(h);
}

/* ---------------------------------------------------------------- pieces */

/* A form field's label. */
static void
field_label(struct core_html *h, const char *id, const char *text)
{
	core_html_elemtext(h, CORE_TAG_LABEL,
	    (const struct core_attr[]){ A(FOR, id), AEND }, text);
}

/* A form that posts csrf (and id=value when name is not NULL). */
static void
post_form_open(struct core_html *h, const char *action, const char *csrf,
    const char *name, const char *value)
{
	core_html_elem(h, CORE_TAG_FORM,
	    (const struct core_attr[]){ A(METHOD, "post"), A(ACTION, action),
		A(CLASS, "form"), AEND });
	hidden(h, "csrf", csrf);
	if (name != NULL)
		hidden(h, name, value);
}

static void
error_box(struct core_html *h, const char *msg)
{
	if (msg == NULL)
		return;
	core_html_elemtext(h, CORE_TAG_P,
	    (const struct core_attr[]){ A(CLASS, "form-error"),
		A(ROLE, "alert"), AEND },
	    msg);
}

/* A notice: a message of success, read out by screen readers. */
static void
notice(struct core_html *h, const char *msg)
{
	core_html_elemtext(h, CORE_TAG_P,
	    (const struct core_attr[]){ A(CLASS, "notice"), A(ROLE, "status"),
		AEND },
	    msg);
}

/*
 * A secret the site keeps only as a hash (a feed URL, an API key): the
 * notice that says so, then the secret in <code id=id>.
 */
static void
shown_once(struct core_html *h, const char *msg, const char *id,
    const char *secret)
{
	notice(h, msg);
	core_html_elem(h, CORE_TAG_P, NULL);
	core_html_elemtext(h, CORE_TAG_CODE,
	    (const struct core_attr[]){ A(CLASS, "feed-url"), A(ID, id), AEND },
	    secret);
	core_html_pop(h);
}

/* What the account and the feed say while nothing is followed: why,
 * then the way to the onboarding page. */
static void
nothing_followed(struct core_html *h, const char *why)
{
	core_html_elem(h, CORE_TAG_P, NULL);
	core_html_text(h, why);
	core_html_elemtext(h, CORE_TAG_A,
	    (const struct core_attr[]){ A(HREF, "/account/welcome"), AEND },
	    "Find researchers to follow");
	core_html_text(h, ".");
	core_html_pop(h);
}

/* A <time> element that shows the timestamp it holds. */
static void
time_elem(struct core_html *h, const char *when)
{
	core_html_elemtext(h, CORE_TAG_TIME,
	    (const struct core_attr[]){ A(DATETIME, when), AEND }, when);
}

/* Opens a section of a page: <section id=id><h2>title</h2>. */
static void
section_open(struct core_html *h, const char *id, const char *title)
{
	core_html_elem(h, CORE_TAG_SECTION,
	    (const struct core_attr[]){ A(ID, id), AEND });
	core_html_elemtext(h, CORE_TAG_H2, NULL, title);
}

/*
 * An account setting: its section, a line saying what it does, and the
 * opened form that posts csrf to action (the caller pops form and
 * section).
 */
static void
setting_open(struct core_html *h, const char *id, const char *title,
    const char *text, const char *action, const char *csrf)
{
	section_open(h, id, title);
	core_html_elemtext(h, CORE_TAG_P, NULL, text);
	post_form_open(h, action, csrf, NULL, NULL);
}

/*
 * The follow/unfollow form of researcher rid: a CSRF field, the page to
 * come back to, and a button naming the state.
 */
static void
follow_form(struct core_html *h, long long rid, int following, const char *csrf,
    const char *next)
{
	char *action;

	action = core_xasprintf("/researchers/%lld/%s", rid,
	    following ? "unfollow" : "follow");
	core_html_elem(h, CORE_TAG_FORM,
	    (const struct core_attr[]){ A(METHOD, "post"), A(ACTION, action),
		A(CLASS, following ? "follow-form following" : "follow-form"),
		AEND });
	hidden(h, "csrf", csrf);
	hidden(h, "next", next);
	follow_button(h, following);
	core_html_pop(h);
	free(action);
}

/* One researcher of a list: name, paper count, follow/unfollow. */
static void
researcher_item(struct core_html *h, const json_t *r, int following,
    const char *csrf, const char *next)
{
	core_html_elem(h, CORE_TAG_LI, NULL);
	core_html_elemtext(h, CORE_TAG_A,
	    (const struct core_attr[]){ A(HREF, core_json_text(r, "path")),
		AEND },
	    core_json_text(r, "name"));
	core_html_elem(h, CORE_TAG_SMALL, NULL);
	core_html_textf(h, " %lld papers ", core_json_int(r, "papers", 0));
	core_html_pop(h);
	follow_form(h, core_json_int(r, "id", 0), following, csrf, next);
	core_html_pop(h);
}

/* Sign-in and sign-up forms. */
static void
html_auth(struct core_html *h, enum acc_view v, const json_t *m)
{
	int up = v == ACC_VIEW_SIGNUP;
	const char *next = core_json_text(m, "next");

	core_html_elemtext(h, CORE_TAG_H1, NULL,
	    up ? "Create an account" : "Sign in");
	if (up)
		core_html_elemtext(h, CORE_TAG_P, NULL,
		    "Follow researchers "
		    "and read their new papers here or in your feed reader.");
	error_box(h, core_json_text(m, "error"));
	core_html_elem(h, CORE_TAG_FORM,
	    (const struct core_attr[]){ A(METHOD, "post"),
		A(ACTION, up ? "/signup" : "/signin"),
		A(CLASS, "form auth-form"), AEND });
	hidden(h, "csrf", core_json_text(m, "csrf"));
	hidden(h, "next", next);
	field_label(h, "email", "Email");
	core_html_elem(h, CORE_TAG_INPUT,
	    (const struct core_attr[]){ A(ID, "email"), A(NAME, "email"),
		A(TYPE, "email"), A(AUTOCOMPLETE, up ? "email" : "username"),
		A(MAXLENGTH, "254"), A(REQUIRED, ""),
		A(VALUE, core_json_text(m, "email")), AEND });
	field_label(h, "password", "Password");
	core_html_elem(h, CORE_TAG_INPUT,
	    (const struct core_attr[]){ A(ID, "password"), A(NAME, "password"),
		A(TYPE, "password"),
		A(AUTOCOMPLETE, up ? "new-password" : "current-password"),
		A(MINLENGTH, "10"), A(MAXLENGTH, "1024"), A(REQUIRED, ""),
		AEND });
	if (up)
		core_html_elemtext(h, CORE_TAG_P,
		    (const struct core_attr[]){ A(CLASS, "hint"), AEND },
		    "At least 10 characters.");
	submit(h, "button button-primary", up ? "Create account" : "Sign in");
	core_html_pop(h); /* form */
	if (!up) {
		core_html_elem(h, CORE_TAG_P, NULL);
		core_html_elemtext(h, CORE_TAG_A,
		    (const struct core_attr[]){ A(HREF, "/account/forgot"),
			AEND },
		    "Forgot your password?");
		core_html_pop(h);
	}

	core_html_elem(h, CORE_TAG_P, NULL);
	core_html_text(h, up ? "Already have an account? " : "New here? ");
	core_html_elemtext(h, CORE_TAG_A,
	    (const struct core_attr[]){ A(HREF, core_json_text(m, "other_url")),
		AEND },
	    up ? "Sign in" : "Create an account");
	core_html_pop(h);
}

static void target_form(struct core_html *, int kind, long long id,
    long long target, const char *csrf, const char *next);
static void html_account_status(struct core_html *, const json_t *,
    const struct acc_session *);
static void html_account_security(struct core_html *, const json_t *,
    const struct acc_session *);
static void md_account_more(struct core_buf *, const json_t *);

static void md_api_keys(struct core_buf *, const json_t *);
static void html_api_keys(struct core_html *, const json_t *,
    const struct acc_session *);
/* The institutions, categories and searches followed, and digests. */
static void
html_account_follows(struct core_html *h, const json_t *m,
    const struct acc_session *s)
{
	/* Each kind's section: its id, its title, and what it says empty. */
	static const struct {
		const char *id, *title, *none;
	} sections[ACC_KIND__MAX] = {
		[ACC_KIND_INSTITUTION] = { "following-institutions",
		    "Institutions you follow",
		    "None yet: follow one from its page." },
		[ACC_KIND_CATEGORY] = { "following-categories",
		    "Categories you follow",
		    "None yet: follow one from a search filtered by "
		    "category." },
		[ACC_KIND_SEARCH] = { "following-searches",
		    "Searches you follow",
		    "None yet: follow one from the search page." },
	};
	static const struct {
		const char *value, *text;
	} modes[] = {
		{ "off", "No digest" },
		{ "daily", "Daily" },
		{ "weekly", "Weekly" },
	};
	const json_t *fol = json_object_get(m, "follows"), *t;
	const char *digest = core_json_text(m, "digest");
	size_t i, n;
	int k;

	for (k = ACC_KIND_INSTITUTION; k < ACC_KIND__MAX; k++) {
		section_open(h, sections[k].id, sections[k].title);
		n = 0;
		json_array_foreach(fol, i, t)
		{
			if (acc_kind_parse(core_json_text(t, "kind")) != k)
				continue;
			if (n++ == 0)
				core_html_elem(h, CORE_TAG_UL,
				    (const struct core_attr[]){
					A(CLASS, "following-list"), AEND });
			core_html_elem(h, CORE_TAG_LI, NULL);
			core_html_elemtext(h, CORE_TAG_A,
			    (const struct core_attr[]){
				A(HREF, core_json_text(t, "path")), AEND },
			    core_json_text(t, "label"));
			if (k == ACC_KIND_SEARCH &&
			    core_json_text(t, "category") != NULL) {
				core_html_text(h, " in ");
				core_html_text(h,
				    core_json_text(t, "category"));
			}
			core_html_text(h, " ");
			target_form(h, k, 0, core_json_int(t, "id", 0), s->csrf,
			    "/account");
			core_html_pop(h);
		}
		if (n > 0)
			core_html_pop(h);
		else
			core_html_elemtext(h, CORE_TAG_P, NULL,
			    sections[k].none);
		core_html_pop(h);
	}

	setting_open(h, "digest", "Email digest",
	    "Everything new that you follow, by email, once a day or once a "
	    "week (only to a confirmed address; nothing new, no mail).",
	    "/account/digest", s->csrf);
	field_label(h, "digest-mode", "Send me a digest");
	core_html_elem(h, CORE_TAG_SELECT,
	    (const struct core_attr[]){ A(ID, "digest-mode"), A(NAME, "digest"),
		AEND });
	for (i = 0; i < sizeof(modes) / sizeof(*modes); i++)
		core_html_elemtext(h, CORE_TAG_OPTION,
		    digest != NULL && strcmp(digest, modes[i].value) == 0
			? (const struct core_attr[]){ A(VALUE, modes[i].value),
			      A(SELECTED, ""), AEND }
			: (const struct core_attr[]){ A(VALUE, modes[i].value),
			      AEND },
		    modes[i].text);
	core_html_pop(h); /* select */
	submit(h, "button", "Save");
	core_html_pop(h); /* form */
	core_html_pop(h); /* section */
}

static void
html_account(struct core_html *h, const json_t *m, const struct acc_session *s)
{
	const json_t *fol = json_object_get(m, "following");
	const json_t *pf = json_object_get(m, "private_feed");
	const json_t *r;
	const char *url, *created;
	size_t i;

	core_html_elemtext(h, CORE_TAG_H1, NULL, "Your account");
	core_html_elem(h, CORE_TAG_P, NULL);
	core_html_text(h, "Signed in as ");
	core_html_elemtext(h, CORE_TAG_STRONG, NULL,
	    core_json_text(m, "email"));
	core_html_text(h, ".");
	core_html_pop(h);
	html_account_status(h, m, s);

	section_open(h, "following", "Researchers you follow");
	if (json_array_size(fol) == 0)
		nothing_followed(h, "You follow nobody yet. ");
	else {
		core_html_elem(h, CORE_TAG_UL,
		    (const struct core_attr[]){ A(CLASS, "following-list"),
			AEND });
		json_array_foreach(fol, i, r)
		{
			researcher_item(h, r, 1, s->csrf, "/account");
		}
		core_html_pop(h);
		core_html_elem(h, CORE_TAG_P, NULL);
		core_html_elemtext(h, CORE_TAG_A,
		    (const struct core_attr[]){ A(HREF, "/feed"), AEND },
		    "Read their newest papers");
		core_html_text(h, " · ");
		core_html_elemtext(h, CORE_TAG_A,
		    (const struct core_attr[]){ A(HREF, "/account/welcome"),
			AEND },
		    "Find more researchers");
		core_html_pop(h);
	}
	core_html_pop(h); /* section */
	html_account_follows(h, m, s);

	section_open(h, "private-feed", "Private RSS feed");
	core_html_elemtext(h, CORE_TAG_P, NULL,
	    "Read the papers of the "
	    "researchers you follow in any feed reader.");
	url = core_json_text(pf, "url");
	created = core_json_text(pf, "created_at");
	if (url != NULL) {
		shown_once(h,
		    "Your new private feed URL (shown only "
		    "this once; copy it into your feed reader now):",
		    "feed-url", url);
	} else if (created != NULL && *created != '\0') {
		core_html_elem(h, CORE_TAG_P, NULL);
		core_html_text(h, "You have a private feed URL (created ");
		time_elem(h, created);
		core_html_text(h,
		    "). It is stored only as a hash, so it "
		    "cannot be shown again; make a new one if you lost it.");
		core_html_pop(h);
	} else
		core_html_elemtext(h, CORE_TAG_P, NULL,
		    "You have no private "
		    "feed URL yet.");
	core_html_elemtext(h, CORE_TAG_P,
	    (const struct core_attr[]){ A(CLASS, "warning"), AEND },
	    "This URL works like a password: "
	    "anyone who has it can read your feed and see whom you follow. "
	    "Do not share it. Making a new URL stops the old one at once.");
	post_form_open(h, "/account/feed-token", s->csrf, NULL, NULL);
	submit(h, "button",
	    (created != NULL && *created != '\0') || url != NULL
		? "Make a new private feed URL (the old one stops working)"
		: "Create my private feed URL");
	core_html_pop(h); /* form */
	core_html_pop(h); /* section */
	html_api_keys(h, json_object_get(m, "api_keys"), s);
	html_account_security(h, m, s);

	core_html_elem(h, CORE_TAG_SECTION, NULL);
	core_html_elemtext(h, CORE_TAG_H2, NULL, "Sign out");
	post_form_open(h, "/signout", s->csrf, NULL, NULL);
	submit(h, "button", "Sign out");
	core_html_pop(h); /* form */
	core_html_pop(h); /* section */
}

static void
pager(struct core_html *h, const json_t *pg)
{
	const char *prev = core_json_text(pg, "prev"),
		   *next = core_json_text(pg, "next");

	if (prev == NULL && next == NULL)
		return;
	/* The same pager as the public lists (pages' render_html.c). */
	core_html_elem(h, CORE_TAG_NAV,
	    (const struct core_attr[]){ A(CLASS, "pager"),
		A(ARIA_LABEL, "Pages"), AEND });
	if (prev != NULL)
		core_html_elemtext(h, CORE_TAG_A,
		    (const struct core_attr[]){ A(HREF, prev), A(REL, "prev"),
			A(CLASS, "button"), AEND },
		    "← newer");
	core_html_elem(h, CORE_TAG_SPAN,
	    (const struct core_attr[]){ A(CLASS, "faint"), AEND });
	core_html_textf(h, "page %lld of %lld", core_json_int(pg, "page", 1),
	    core_json_int(pg, "pages", 1));
	core_html_pop(h);
	if (next != NULL)
		core_html_elemtext(h, CORE_TAG_A,
		    (const struct core_attr[]){ A(HREF, next), A(REL, "next"),
			A(CLASS, "button"), AEND },
		    "older →");
	core_html_pop(h);
}

static void
html_feed(struct core_html *h, const json_t *m)
{
	const json_t *papers = json_object_get(m, "papers"), *p, *au, *a;
	size_t i, j;
	int followed;

	core_html_elemtext(h, CORE_TAG_H1, NULL, "Your feed");
	if (core_json_int(m, "following_count", 0) == 0) {
		nothing_followed(h,
		    "Follow researchers, institutions, categories or "
		    "searches to see their new papers here. ");
		return;
	}
	core_html_elem(h, CORE_TAG_P,
	    (const struct core_attr[]){ A(CLASS, "lede"), AEND });
	core_html_textf(h,
	    "New papers and versions of the %lld things you "
	    "follow, newest first (",
	    core_json_int(m, "following_count", 0));
	core_html_elemtext(h, CORE_TAG_A,
	    (const struct core_attr[]){ A(HREF, "/account"), AEND }, "manage");
	core_html_text(h, ").");
	core_html_pop(h);
	if (json_array_size(papers) == 0) {
		core_html_elemtext(h, CORE_TAG_P,
		    (const struct core_attr[]){ A(CLASS, "empty"), AEND },
		    "Nothing you follow has papers here yet.");
		return;
	}
	/* The same cards as every other list of papers on the site. */
	core_html_elem(h, CORE_TAG_UL,
	    (const struct core_attr[]){ A(CLASS, "cards"), AEND });
	json_array_foreach(papers, i, p)
	{
		core_html_elem(h, CORE_TAG_LI,
		    (const struct core_attr[]){ A(CLASS, "card"), AEND });
		/* Why it is here: "new paper by X", "v2 replaced v1: ...". */
		core_html_elemtext(h, CORE_TAG_P,
		    (const struct core_attr[]){ A(CLASS, "card-why faint"),
			AEND },
		    core_json_text(p, "why"));
		core_html_elem(h, CORE_TAG_H3,
		    (const struct core_attr[]){ A(CLASS, "card-title"), AEND });
		core_html_elemtext(h, CORE_TAG_A,
		    (const struct core_attr[]){
			A(HREF, core_json_text(p, "url")), AEND },
		    core_json_text(p, "title"));
		core_html_pop(h);
		core_html_elem(h, CORE_TAG_P,
		    (const struct core_attr[]){ A(CLASS, "card-authors"),
			AEND });
		au = json_object_get(p, "authors");
		json_array_foreach(au, j, a)
		{
			if (j > 0)
				core_html_text(h, ", ");
			followed = json_is_true(json_object_get(a, "followed"));
			if (followed)
				core_html_elem(h, CORE_TAG_STRONG, NULL);
			if (core_json_text(a, "url") != NULL)
				core_html_elemtext(h, CORE_TAG_A,
				    (const struct core_attr[]){
					A(HREF, core_json_text(a, "url")),
					AEND },
				    core_json_text(a, "name"));
			else
				core_html_text(h, core_json_text(a, "name"));
			if (followed)
				core_html_pop(h);
		}
		if ((long long)json_array_size(au) <
		    core_json_int(p, "author_count", 0))
			core_html_text(h, ", …");
		core_html_pop(h);
		core_html_elem(h, CORE_TAG_P,
		    (const struct core_attr[]){ A(CLASS, "card-meta"), AEND });
		core_html_date(h, core_json_text(p, "date"));
		core_html_elem(h, CORE_TAG_SPAN,
		    (const struct core_attr[]){ A(CLASS, "mono faint"), AEND });
		core_html_text(h, core_json_text(p, "arxiv_id"));
		if (core_json_int(p, "version", 1) > 1)
			core_html_textf(h, "v%lld",
			    core_json_int(p, "version", 1));
		core_html_pop(h);
		if (core_json_text(p, "primary_category") != NULL)
			core_html_elemtext(h, CORE_TAG_SPAN,
			    (const struct core_attr[]){
				A(CLASS, "cat cat-primary"),
				A(TITLE, "primary category"), AEND },
			    core_json_text(p, "primary_category"));
		core_html_pop(h);
		core_html_pop(h); /* li */
	}
	core_html_pop(h);
	pager(h, json_object_get(m, "pagination"));
}

static void
html_welcome(struct core_html *h, const json_t *m, const struct acc_session *s)
{
	const json_t *fields = json_object_get(m, "fields"), *f, *r;
	const json_t *rs = json_object_get(m, "researchers");
	const char *field = core_json_text(m, "field"),
		   *q = core_json_text(m, "q");
	const char *back = core_json_text(m, "self");
	int following;
	size_t i;

	core_html_elemtext(h, CORE_TAG_H1, NULL, "Follow some researchers");
	core_html_elemtext(h, CORE_TAG_P, NULL,
	    "Pick a field to see who "
	    "publishes most in it now, or search by name. Their new papers "
	    "will appear in your feed.");
	core_html_elem(h, CORE_TAG_FORM,
	    (const struct core_attr[]){ A(METHOD, "get"),
		A(ACTION, "/account/welcome"), A(CLASS, "form inline-form"),
		AEND });
	field_label(h, "field", "Field");
	core_html_elem(h, CORE_TAG_SELECT,
	    (const struct core_attr[]){ A(ID, "field"), A(NAME, "field"),
		AEND });
	core_html_elemtext(h, CORE_TAG_OPTION,
	    (const struct core_attr[]){ A(VALUE, ""), AEND }, "Choose…");
	json_array_foreach(fields, i, f)
	{
		const char *code = core_json_text(f, "code");

		core_html_elem(h, CORE_TAG_OPTION,
		    (const struct core_attr[]){ A(VALUE, code),
			A(SELECTED,
			    field != NULL && code != NULL &&
				    strcmp(field, code) == 0
				? ""
				: NULL),
			AEND });
		core_html_textf(h, "%s (%lld papers)", code ? code : "",
		    core_json_int(f, "papers", 0));
		core_html_pop(h);
	}
	core_html_pop(h); /* select */
	submit(h, "button", "Show");
	core_html_pop(h); /* form */

	core_html_elem(h, CORE_TAG_FORM,
	    (const struct core_attr[]){ A(METHOD, "get"),
		A(ACTION, "/account/welcome"), A(CLASS, "form inline-form"),
		A(ROLE, "search"), AEND });
	field_label(h, "q", "Name");
	core_html_elem(h, CORE_TAG_INPUT,
	    (const struct core_attr[]){ A(ID, "q"), A(NAME, "q"),
		A(TYPE, "search"), A(VALUE, q), A(MAXLENGTH, "200"),
		A(PLACEHOLDER, "e.g. Hinton"), AEND });
	submit(h, "button", "Search");
	core_html_pop(h);

	if (field != NULL || q != NULL) {
		core_html_elem(h, CORE_TAG_H2, NULL);
		if (q != NULL)
			core_html_textf(h, "Researchers named “%s”", q);
		else
			core_html_textf(h,
			    "Most papers in %s, among its %lld newest", field,
			    core_json_int(m, "field_newest", 0));
		core_html_pop(h);
		if (json_array_size(rs) == 0)
			core_html_elemtext(h, CORE_TAG_P, NULL,
			    "Nobody found.");
		core_html_elem(h, CORE_TAG_UL,
		    (const struct core_attr[]){ A(CLASS, "suggestions"),
			AEND });
		json_array_foreach(rs, i, r)
		{
			following =
			    json_is_true(json_object_get(r, "following"));
			researcher_item(h, r, following, s->csrf, back);
		}
		core_html_pop(h);
	}
	core_html_elem(h, CORE_TAG_P,
	    (const struct core_attr[]){ A(CLASS, "continue"), AEND });
	core_html_elemtext(h, CORE_TAG_A,
	    (const struct core_attr[]){ A(HREF, core_json_text(m, "continue")),
		A(CLASS, "button"), AEND },
	    "Skip for now →");
	core_html_pop(h);
}

/* Each view's title and its <main> class (its layout in weft.css). */
static const struct {
	const char *title, *main_class;
} views[ACC_VIEW__MAX] = {
	[ACC_VIEW_SIGNIN] = { "Sign in", "wrap doc account-form" },
	[ACC_VIEW_SIGNUP] = { "Create an account", "wrap doc account-form" },
	[ACC_VIEW_ACCOUNT] = { "Your account", "wrap doc account-page" },
	[ACC_VIEW_FEED] = { "Your feed", "wrap doc feed-page" },
	[ACC_VIEW_WELCOME] = { "Follow some researchers",
	    "wrap doc account-page welcome-page" },
};

static enum core_err
render_html(struct core_buf *b, enum acc_view v, const json_t *m,
    const struct acc_session *s)
{
	struct core_html h;

	core_html_open(&h, core_buf_sink(b));
	shell_open(&h, views[v].title, s, views[v].main_class);
	switch (v) {
	case ACC_VIEW_SIGNIN:
	case ACC_VIEW_SIGNUP:
		html_auth(&h, v, m);
		break;
	case ACC_VIEW_ACCOUNT:
		html_account(&h, m, s);
		break;
	case ACC_VIEW_FEED:
		html_feed(&h, m);
		break;
	case ACC_VIEW_WELCOME:
		html_welcome(&h, m, s);
		break;
	default:
		break;
	}
	shell_close(&h);
	return core_html_close(&h);
}

/* ---------------------------------------------------------------- markdown */

static void
md_line(struct core_buf *b, const char *label, const char *text)
{
	core_buf_puts(b, "- ");
	core_md_text(b, label);
	core_buf_puts(b, ": ");
	core_md_text(b, text != NULL ? text : "");
	core_buf_puts(b, "\n");
}

/* A researcher of a list: "- [name](url) (N papers)", ", following"
 * when show_following and they are followed. */
static void
md_researcher(struct core_buf *b, const json_t *x, int show_following)
{
	core_buf_puts(b, "- ");
	core_md_link(b, core_json_text(x, "name"), core_json_text(x, "url"));
	core_buf_printf(b, " (%lld papers)%s\n", core_json_int(x, "papers", 0),
	    show_following && json_is_true(json_object_get(x, "following"))
		? ", following"
		: "");
}

/* The text of field key of each object of a, separated by ", ". */
static void
md_join(struct core_buf *b, const json_t *a, const char *key)
{
	const json_t *x;
	size_t i;

	json_array_foreach(a, i, x)
	{
		if (i > 0)
			core_buf_puts(b, ", ");
		core_md_text(b, core_json_text(x, key));
	}
}

static void
render_md(struct core_buf *b, const char *base, enum acc_view v,
    const json_t *m)
{
	const json_t *a, *x, *pf, *pg;
	char *u;
	size_t i;

	core_md_heading(b, 1, views[v].title);
	if (core_json_text(m, "error") != NULL) {
		core_buf_puts(b, "**Error:** ");
		core_md_text(b, core_json_text(m, "error"));
		core_buf_puts(b, "\n\n");
	}
	switch (v) {
	case ACC_VIEW_SIGNIN:
	case ACC_VIEW_SIGNUP:
		u = core_xasprintf("%s%s", base,
		    v == ACC_VIEW_SIGNUP ? "/signup" : "/signin");
		core_buf_puts(b,
		    "A form for people in a browser. Send it as "
		    "`application/x-www-form-urlencoded` POST to ");
		core_md_link(b, u, u);
		core_buf_puts(b,
		    " with the fields `email`, `password`, "
		    "`csrf` (the value below, valid with the cookie this "
		    "response sets) and optionally `next`.\n\n");
		md_line(b, "csrf", core_json_text(m, "csrf"));
		free(u);
		break;
	case ACC_VIEW_ACCOUNT:
		md_line(b, "Email", core_json_text(m, "email"));
		core_buf_puts(b, "\n");
		core_md_heading(b, 2, "Researchers you follow");
		a = json_object_get(m, "following");
		if (json_array_size(a) == 0)
			core_buf_puts(b, "None yet.\n");
		json_array_foreach(a, i, x)
		{
			md_researcher(b, x, 0);
		}
		core_buf_puts(b, "\n");
		core_md_heading(b, 2,
		    "Institutions, categories and searches "
		    "you follow");
		a = json_object_get(m, "follows");
		if (json_array_size(a) == 0)
			core_buf_puts(b, "None yet.\n");
		json_array_foreach(a, i, x)
		{
			core_buf_puts(b, "- ");
			core_md_text(b, core_json_text(x, "kind"));
			core_buf_puts(b, ": ");
			core_md_link(b, core_json_text(x, "label"),
			    core_json_text(x, "url"));
			core_buf_printf(b, " (follow id %lld)\n",
			    core_json_int(x, "id", 0));
		}
		core_buf_puts(b, "\n");
		md_line(b, "Email digest", core_json_text(m, "digest"));
		core_buf_puts(b, "\n");
		core_md_heading(b, 2, "Private RSS feed");
		pf = json_object_get(m, "private_feed");
		if (core_json_text(pf, "url") != NULL) {
			core_buf_puts(b, "New URL (shown only once): ");
			core_md_link(b, core_json_text(pf, "url"),
			    core_json_text(pf, "url"));
			core_buf_puts(b, "\n\n");
		} else if (json_is_true(json_object_get(pf, "exists")))
			md_line(b, "Created", core_json_text(pf, "created_at"));
		else
			core_buf_puts(b, "None yet.\n");
		core_buf_puts(b,
		    "\nThe URL works like a password: do not "
		    "share it. POST to ");
		core_md_link(b, core_json_text(pf, "rotate"),
		    core_json_text(pf, "rotate"));
		core_buf_puts(b,
		    " to make a new one (the old one stops "
		    "working).\n");
		md_api_keys(b, json_object_get(m, "api_keys"));
		md_account_more(b, m);
		break;
	case ACC_VIEW_FEED:
		a = json_object_get(m, "papers");
		if (json_array_size(a) == 0)
			core_buf_puts(b, "No papers yet.\n");
		json_array_foreach(a, i, x)
		{
			core_buf_puts(b, "- ");
			core_md_link(b, core_json_text(x, "title"),
			    core_json_text(x, "url"));
			core_buf_puts(b, " — ");
			md_join(b, json_object_get(x, "authors"), "name");
			core_buf_puts(b, "; ");
			core_md_text(b,
			    core_json_text(x, "date")
				? core_json_text(x, "date")
				: "undated");
			core_buf_puts(b, " — ");
			core_md_text(b, core_json_text(x, "why"));
			core_buf_puts(b, "\n");
		}
		pg = json_object_get(m, "pagination");
		core_buf_printf(b, "\nPage %lld of %lld.",
		    core_json_int(pg, "page", 1),
		    core_json_int(pg, "pages", 1));
		if (core_json_text(pg, "prev") != NULL) {
			core_buf_puts(b, " ");
			core_md_link(b, "Newer", core_json_text(pg, "prev"));
		}
		if (core_json_text(pg, "next") != NULL) {
			core_buf_puts(b, " ");
			core_md_link(b, "Older", core_json_text(pg, "next"));
		}
		core_buf_puts(b, "\n");
		break;
	case ACC_VIEW_WELCOME:
		if (core_json_text(m, "q") != NULL) {
			core_buf_puts(b, "Researchers named ");
			core_md_text(b, core_json_text(m, "q"));
			core_buf_puts(b, ", most papers first:\n\n");
		} else if (core_json_text(m, "field") != NULL) {
			core_buf_puts(b, "Most papers in ");
			core_md_text(b, core_json_text(m, "field"));
			core_buf_printf(b, ", among its %lld newest:\n\n",
			    core_json_int(m, "field_newest", 0));
		}
		a = json_object_get(m, "researchers");
		json_array_foreach(a, i, x)
		{
			md_researcher(b, x, 1);
		}
		core_buf_puts(b, "\nFields: ");
		md_join(b, json_object_get(m, "fields"), "code");
		core_buf_puts(b, "\n");
		break;
	default:
		break;
	}
}

/* ---------------------------------------------------------------- respond */

/*
 * The end of every page of this module, once its body is written: the
 * status, the type and the private headers; or, when er (the writer's
 * error) is set, CORE_ESYS, logged with what was rendered.
 */
static enum core_err
respond_done(struct core_req *req, enum core_err er, int status,
    enum core_rep rep, const char *what)
{
	if (er != CORE_OK) {
		core_log(CORE_LOG_ERROR, "render", "%s: %s", what,
		    core_err_str(er));
		return CORE_ESYS;
	}
	core_resp_status(req, status);
	core_resp_type(req, rep);
	acc_private_headers(req);
	return CORE_OK;
}

enum core_err
acc_respond(struct core_req *req, enum acc_view v, int status,
    const json_t *model, const struct acc_session *s)
{
	struct core_ctx *ctx = core_req_ctx(req);
	struct core_buf *body = core_resp_body(req);
	enum core_rep rep = core_req_rep(req);
	enum core_err er = CORE_OK;

	core_buf_reset(body);
	switch (rep) {
	case CORE_REP_MD:
		render_md(body, ctx->base_url, v, model);
		break;
	case CORE_REP_JSON:
		core_json_render(body, model, 1);
		break;
	default:
		rep = CORE_REP_HTML;
		er = render_html(body, v, model, s);
		break;
	}
	return respond_done(req, er, status, rep, "view");
}

void
acc_html_error(struct core_req *req, int status, const char *msg)
{
	struct core_html h;
	const char *title = core_status_reason(status);

	core_html_open(&h, core_resp_sink(req));
	shell_open(&h, *title != '\0' ? title : "Error", NULL,
	    "wrap error-page");
	core_site_error(&h, status, title, msg);
	shell_close(&h);
}

/* ---------------------------------------------------------------- fragments */

static void
fragment_headers(struct core_req *req)
{
	core_resp_type(req, CORE_REP_HTML);
	core_resp_header(req, "Cache-Control", "private, no-store");
}

/* The anonymous fragment: a link to sign in and come back to next. */
static void
signin_to_follow(struct core_html *h, const char *next)
{
	struct core_buf href = CORE_BUF_INIT;

	core_buf_puts(&href, "/signin?next=");
	core_url_encode(&href, next, 0);
	core_html_elemtext(h, CORE_TAG_A,
	    (const struct core_attr[]){ A(HREF, core_buf_cstr(&href)),
		A(CLASS, "button button-primary"), A(REL, "nofollow"), AEND },
	    "Follow");
	core_buf_free(&href);
}

void
acc_render_follow_fragment(struct core_req *req, long long rid,
    const char *slug, const struct acc_session *s, int following)
{
	struct core_html h;
	struct core_buf next = CORE_BUF_INIT;

	core_buf_printf(&next, "/researchers/%lld%s%s", rid,
	    slug != NULL && *slug != '\0' ? "-" : "", slug != NULL ? slug : "");
	core_html_open(&h, core_resp_sink(req));
	if (s == NULL || !s->valid)
		signin_to_follow(&h, core_buf_cstr(&next));
	else
		follow_form(&h, rid, following, s->csrf, core_buf_cstr(&next));
	core_html_close(&h);
	fragment_headers(req);
	core_buf_free(&next);
}

void
acc_render_nav_fragment(struct core_req *req, const struct acc_session *s)
{
	struct core_html h;

	/* Bare links: the page's own <span class="account"> holds them. */
	core_html_open(&h, core_resp_sink(req));
	account_links(&h, s);
	core_html_close(&h);
	fragment_headers(req);
}

/* A form that follows kind id, or removes follow target. */
static void
target_form(struct core_html *h, int kind, long long id, long long target,
    const char *csrf, const char *next)
{
	char ib[24];

	snprintf(ib, sizeof(ib), "%lld", target != 0 ? target : id);
	core_html_elem(h, CORE_TAG_FORM,
	    (const struct core_attr[]){ A(METHOD, "post"),
		A(ACTION,
		    target != 0 ? "/account/follows/remove"
				: "/account/follows"),
		A(CLASS, target != 0 ? "follow-form following" : "follow-form"),
		AEND });
	hidden(h, "csrf", csrf);
	hidden(h, "next", next);
	hidden(h, "kind", acc_kinds[kind]);
	hidden(h, "id", ib);
	follow_button(h, target != 0);
	core_html_pop(h);
}

void
acc_render_target_fragment(struct core_req *req, int kind, long long id,
    long long target, const char *next, const struct acc_session *s)
{
	struct core_html h;

	core_html_open(&h, core_resp_sink(req));
	if (s == NULL || !s->valid)
		signin_to_follow(&h, next);
	else
		target_form(&h, kind, id, target, s->csrf, next);
	core_html_close(&h);
	fragment_headers(req);
}

void
acc_render_category_fragment(struct core_req *req, const char *cat,
    long long target, const char *next, const struct acc_session *s)
{
	struct core_html h;
	char *label;

	if (s == NULL || !s->valid || target != 0) {
		/* Anonymous (a sign-in link) or the removal form. */
		acc_render_target_fragment(req, ACC_KIND_CATEGORY, 0, target,
		    next, s);
		return;
	}
	label = core_xasprintf("Follow new papers in %s", cat);
	core_html_open(&h, core_resp_sink(req));
	core_html_elem(&h, CORE_TAG_FORM,
	    (const struct core_attr[]){ A(METHOD, "post"),
		A(ACTION, "/account/follows"), A(CLASS, "follow-form"), AEND });
	hidden(&h, "csrf", s->csrf);
	hidden(&h, "next", next);
	hidden(&h, "kind", acc_kinds[ACC_KIND_CATEGORY]);
	hidden(&h, "category", cat);
	submit(&h, "button button-primary follow-button", label);
	core_html_pop(&h);
	core_html_close(&h);
	fragment_headers(req);
	free(label);
}

/* ------------------------------------------------- issue 18: account mail */

/* A labelled password field. */
static void
password_field(struct core_html *h, const char *id, const char *name,
    const char *label, const char *autocomplete)
{
	field_label(h, id, label);
	core_html_elem(h, CORE_TAG_INPUT,
	    (const struct core_attr[]){ A(ID, id), A(NAME, name),
		A(TYPE, "password"), A(AUTOCOMPLETE, autocomplete),
		A(MAXLENGTH, "1024"), A(REQUIRED, ""), AEND });
}

/* The notice or error of the last action, and the email's status. */
static void
html_account_status(struct core_html *h, const json_t *m,
    const struct acc_session *s)
{
	const char *note = core_json_text(m, "notice");

	if (note != NULL)
		notice(h, note);
	error_box(h, core_json_text(m, "error"));

	section_open(h, "email", "Email address");
	if (json_is_true(json_object_get(m, "email_verified"))) {
		core_html_elem(h, CORE_TAG_P, NULL);
		core_html_text(h, "Your address is confirmed (");
		time_elem(h, core_json_text(m, "email_verified_at"));
		core_html_text(h, ").");
		core_html_pop(h);
	} else {
		core_html_elemtext(h, CORE_TAG_P, NULL,
		    "Your address is not confirmed yet. Until it is, we send "
		    "it nothing but the confirmation link, and you cannot "
		    "reset your password by email.");
		post_form_open(h, "/account/verify/resend", s->csrf, NULL,
		    NULL);
		submit(h, "button", "Send me a new confirmation link");
		core_html_pop(h);
	}
	core_html_pop(h); /* section */
}

/* API keys: the new secret once, the live keys, a form for another. */
static void
html_api_keys(struct core_html *h, const json_t *ak,
    const struct acc_session *s)
{
	const json_t *list = json_object_get(ak, "keys"), *x;
	const json_t *lim = json_object_get(ak, "limit");
	const char *nk = core_json_text(ak, "new_key");
	char id[24];
	size_t i;

	section_open(h, "api-keys", "API keys");
	core_html_elem(h, CORE_TAG_P, NULL);
	core_html_textf(h,
	    "Programs and agents that send a key (Authorization: Bearer "
	    "KEY) may read up to %lld times in %lld seconds, instead of an "
	    "address's share. ",
	    core_json_int(lim, "requests", 0),
	    core_json_int(lim, "window_seconds", 0));
	core_html_elemtext(h, CORE_TAG_A,
	    (const struct core_attr[]){ A(HREF, "/developers"), AEND },
	    "How to use one");
	core_html_text(h, ".");
	core_html_pop(h);
	if (nk != NULL)
		shown_once(h,
		    "Your new API key (shown only this once; copy it now):",
		    "api-key", nk);
	if (json_array_size(list) > 0) {
		core_html_elem(h, CORE_TAG_UL,
		    (const struct core_attr[]){ A(CLASS, "session-list"),
			AEND });
		json_array_foreach(list, i, x)
		{
			core_html_elem(h, CORE_TAG_LI, NULL);
			core_html_elemtext(h, CORE_TAG_STRONG, NULL,
			    core_json_text(x, "name"));
			core_html_elem(h, CORE_TAG_SMALL, NULL);
			core_html_text(h, " made ");
			time_elem(h, core_json_text(x, "created_at"));
			core_html_textf(h, ", %lld requests ",
			    core_json_int(x, "requests", 0));
			core_html_pop(h);
			snprintf(id, sizeof(id), "%lld",
			    core_json_int(x, "id", 0));
			post_form_open(h, "/account/keys/revoke", s->csrf, "id",
			    id);
			submit(h, "button", "Revoke");
			core_html_pop(h);
			core_html_pop(h); /* li */
		}
		core_html_pop(h); /* ul */
	} else
		core_html_elemtext(h, CORE_TAG_P, NULL,
		    "You have no API key yet.");
	core_html_elemtext(h, CORE_TAG_P,
	    (const struct core_attr[]){ A(CLASS, "warning"), AEND },
	    "A key works like a password for your share of the site: do "
	    "not publish it. Revoking a key stops it at once.");
	post_form_open(h, "/account/keys", s->csrf, NULL, NULL);
	field_label(h, "key-name", "Name of the new key");
	core_html_elem(h, CORE_TAG_INPUT,
	    (const struct core_attr[]){ A(ID, "key-name"), A(NAME, "name"),
		A(TYPE, "text"), A(MAXLENGTH, "100"), A(REQUIRED, ""), AEND });
	submit(h, "button", "Create an API key");
	core_html_pop(h); /* form */
	core_html_pop(h); /* section */
}

/* Change password, active sessions, delete the account. */
static void
html_account_security(struct core_html *h, const json_t *m,
    const struct acc_session *s)
{
	const json_t *list = json_object_get(m, "sessions"), *x;
	char id[24];
	size_t i;

	setting_open(h, "password", "Change your password",
	    "Changing it signs out every other session.", "/account/password",
	    s->csrf);
	password_field(h, "current", "current", "Current password",
	    "current-password");
	password_field(h, "password", "password",
	    "New password (at least 10 characters)", "new-password");
	submit(h, "button button-primary", "Change password");
	core_html_pop(h);
	core_html_pop(h); /* section */

	section_open(h, "sessions", "Where you are signed in");
	core_html_elem(h, CORE_TAG_UL,
	    (const struct core_attr[]){ A(CLASS, "session-list"), AEND });
	json_array_foreach(list, i, x)
	{
		const char *net = core_json_text(x, "network");
		int cur = json_is_true(json_object_get(x, "current"));

		core_html_elem(h, CORE_TAG_LI, NULL);
		core_html_elemtext(h, CORE_TAG_STRONG, NULL,
		    core_json_text(x, "agent"));
		if (net != NULL && *net != '\0')
			core_html_textf(h, " from %s", net);
		if (cur)
			core_html_text(h, " (this browser)");
		core_html_elem(h, CORE_TAG_SMALL, NULL);
		core_html_text(h, " signed in ");
		time_elem(h, core_json_text(x, "created_at"));
		core_html_text(h, ", last seen ");
		time_elem(h, core_json_text(x, "last_seen_at"));
		core_html_text(h, " ");
		core_html_pop(h);
		snprintf(id, sizeof(id), "%lld", core_json_int(x, "id", 0));
		post_form_open(h, "/account/sessions/end", s->csrf, "id", id);
		submit(h, "button", "Sign out this one");
		core_html_pop(h);
		core_html_pop(h); /* li */
	}
	core_html_pop(h); /* ul */
	if (json_array_size(list) > 1) {
		post_form_open(h, "/account/sessions/end-others", s->csrf, NULL,
		    NULL);
		submit(h, "button", "Sign out everywhere else");
		core_html_pop(h);
	}
	core_html_pop(h); /* section */

	setting_open(h, "delete", "Delete your account",
	    "This deletes your account, your sessions, the researchers you "
	    "follow and your private feed, at once and for good.",
	    "/account/delete", s->csrf);
	password_field(h, "delete-current", "current",
	    "Type your password to confirm", "current-password");
	submit(h, "button", "Delete my account");
	core_html_pop(h);
	core_html_pop(h); /* section */
}

static void
md_api_keys(struct core_buf *b, const json_t *ak)
{
	const json_t *x;
	size_t i;

	core_buf_puts(b, "\n");
	core_md_heading(b, 2, "API keys");
	if (core_json_text(ak, "new_key") != NULL) {
		core_buf_puts(b, "New key (shown only once): `");
		core_buf_puts(b, core_json_text(ak, "new_key"));
		core_buf_puts(b, "`\n\n");
	}
	json_array_foreach(json_object_get(ak, "keys"), i, x)
	{
		core_buf_puts(b, "- ");
		core_md_text(b, core_json_text(x, "name"));
		core_buf_puts(b, ", made ");
		core_md_text(b, core_json_text(x, "created_at"));
		core_buf_printf(b, ", %lld requests (id %lld)\n",
		    core_json_int(x, "requests", 0), core_json_int(x, "id", 0));
	}
	core_buf_puts(b,
	    "\nForms (POST, with `csrf`): /account/keys (`name`), "
	    "/account/keys/revoke (`id`).\n");
}

static void
md_account_more(struct core_buf *b, const json_t *m)
{
	const json_t *list = json_object_get(m, "sessions"), *x;
	size_t i;

	core_buf_puts(b, "\n");
	core_md_heading(b, 2, "Email address");
	if (core_json_text(m, "notice") != NULL) {
		core_md_text(b, core_json_text(m, "notice"));
		core_buf_puts(b, "\n\n");
	}
	if (json_is_true(json_object_get(m, "email_verified")))
		md_line(b, "Confirmed", core_json_text(m, "email_verified_at"));
	else
		core_buf_puts(b,
		    "Not confirmed yet. POST to "
		    "/account/verify/resend for a new link.\n");
	core_buf_puts(b, "\n");
	core_md_heading(b, 2, "Where you are signed in");
	json_array_foreach(list, i, x)
	{
		core_buf_puts(b, "- ");
		core_md_text(b, core_json_text(x, "agent"));
		if (core_json_text(x, "network") != NULL &&
		    *core_json_text(x, "network") != '\0') {
			core_buf_puts(b, " from ");
			core_md_text(b, core_json_text(x, "network"));
		}
		core_buf_puts(b, ", signed in ");
		core_md_text(b, core_json_text(x, "created_at"));
		core_buf_puts(b, ", last seen ");
		core_md_text(b, core_json_text(x, "last_seen_at"));
		core_buf_printf(b, " (id %lld%s)\n", core_json_int(x, "id", 0),
		    json_is_true(json_object_get(x, "current"))
			? ", this session"
			: "");
	}
	core_buf_puts(b,
	    "\nForms (POST, with `csrf`): /account/password (`current`, "
	    "`password`), /account/sessions/end (`id`), "
	    "/account/sessions/end-others, /account/delete (`current`).\n");
}

/* The message page (recover.c, manage.c): see accounts.h. */
static void
html_message(struct core_html *h, const json_t *m)
{
	const json_t *f = json_object_get(m, "form"), *links, *l;
	const char *pw = core_json_text(f, "password"), *key;
	json_t *v;
	size_t i;

	core_html_elemtext(h, CORE_TAG_H1, NULL, core_json_text(m, "title"));
	if (json_is_true(json_object_get(m, "ok")))
		notice(h, core_json_text(m, "message"));
	else
		error_box(h, core_json_text(m, "message"));
	if (json_is_object(f)) {
		core_html_elem(h, CORE_TAG_FORM,
		    (const struct core_attr[]){ A(METHOD, "post"),
			A(ACTION, core_json_text(f, "action")),
			A(CLASS, "form"), AEND });
		hidden(h, "csrf", core_json_text(f, "csrf"));
		hidden(h, "token", core_json_text(f, "token"));
		hidden(h, "next", core_json_text(f, "next"));
		json_object_foreach(json_object_get(f, "fields"), key, v)
		{
			hidden(h, key, json_string_value(v));
		}
		if (json_is_true(json_object_get(f, "email"))) {
			field_label(h, "email", "Email");
			core_html_elem(h, CORE_TAG_INPUT,
			    (const struct core_attr[]){ A(ID, "email"),
				A(NAME, "email"), A(TYPE, "email"),
				A(AUTOCOMPLETE, "email"), A(MAXLENGTH, "254"),
				A(REQUIRED, ""), AEND });
		}
		if (pw != NULL && strcmp(pw, "new") == 0)
			password_field(h, "password", "password",
			    "New password", "new-password");
		else if (pw != NULL)
			password_field(h, "password", "password", "Password",
			    "current-password");
		submit(h, "button button-primary", core_json_text(f, "button"));
		core_html_pop(h);
	}
	links = json_object_get(m, "links");
	json_array_foreach(links, i, l)
	{
		core_html_elem(h, CORE_TAG_P, NULL);
		core_html_elemtext(h, CORE_TAG_A,
		    (const struct core_attr[]){
			A(HREF, core_json_text(l, "href")), AEND },
		    core_json_text(l, "text"));
		core_html_pop(h);
	}
}

static void
md_message(struct core_buf *b, const char *base, const json_t *m)
{
	const json_t *f = json_object_get(m, "form"), *links, *l;
	const char *key;
	json_t *v;
	size_t i;
	char *u;

	core_md_heading(b, 1, core_json_text(m, "title"));
	if (!json_is_true(json_object_get(m, "ok")))
		core_buf_puts(b, "**Error:** ");
	core_md_text(b, core_json_text(m, "message"));
	core_buf_puts(b, "\n");
	if (json_is_object(f)) {
		u = core_xasprintf("%s%s", base, core_json_text(f, "action"));
		core_buf_puts(b, "\nA form for people in a browser: POST to ");
		core_md_link(b, u, u);
		core_buf_puts(b,
		    " with `csrf` (below, valid with the cookie "
		    "this response sets)");
		if (core_json_text(f, "token") != NULL)
			core_buf_puts(b, ", `token`");
		if (core_json_text(f, "next") != NULL)
			core_buf_puts(b, ", `next`");
		json_object_foreach(json_object_get(f, "fields"), key, v)
		{
			core_buf_puts(b, ", `");
			core_md_text(b, key);
			core_buf_puts(b, "` = ");
			core_md_text(b, json_string_value(v));
		}
		if (json_is_true(json_object_get(f, "email")))
			core_buf_puts(b, ", `email`");
		if (core_json_text(f, "password") != NULL)
			core_buf_puts(b, ", `password`");
		core_buf_puts(b, ".\n\n");
		md_line(b, "csrf", core_json_text(f, "csrf"));
		free(u);
	}
	links = json_object_get(m, "links");
	json_array_foreach(links, i, l)
	{
		u = core_xasprintf("%s%s", base, core_json_text(l, "href"));
		core_buf_puts(b, "\n");
		core_md_link(b, core_json_text(l, "text"), u);
		core_buf_puts(b, "\n");
		free(u);
	}
}

/* acc_respond_message() once the model is there: m stays the caller's. */
static enum core_err
respond_message(struct core_req *req, int status, const json_t *m,
    const struct acc_session *s)
{
	struct core_ctx *ctx = core_req_ctx(req);
	struct core_buf *body = core_resp_body(req);
	enum core_rep rep = core_req_rep(req);
	struct core_html h;
	enum core_err er = CORE_OK;

	core_buf_reset(body);
	switch (rep) {
	case CORE_REP_MD:
		md_message(body, ctx->base_url, m);
		break;
	case CORE_REP_JSON:
		core_json_render(body, m, 1);
		break;
	default:
		rep = CORE_REP_HTML;
		core_html_open(&h, core_buf_sink(body));
		shell_open(&h, core_json_text(m, "title"), s,
		    "wrap doc account-form");
		html_message(&h, m);
		shell_close(&h);
		er = core_html_close(&h);
		break;
	}
	return respond_done(req, er, status, rep, "message");
}

enum core_err
acc_respond_message(struct core_req *req, int status, json_t *m,
    const struct acc_session *s)
{
	enum core_err er;

	if (m == NULL)
		return CORE_ESYS;
	er = respond_message(req, status, m, s);
	json_decref(m);
	return er;
}
