// tests/browser/run.js -- the site in a real browser (issue 18): Debian's
// chromium, headless, driven by puppeteer-core.  Every kind of page,
// signed out and signed in, at 1366 and 390 px: no horizontal overflow,
// no console error (a CSP violation is one), no serious or critical
// axe-core violation (colour contrast under 4.5:1 is one).  Then a new
// user by clicking: sign up, follow a researcher, make a feed URL, ask
// about a paper in the chat (the answer streams in; without JavaScript
// it shows on reload), sign out; the verification link comes from the
// test SMTP server's maildir (WEFT_MAIL).  A screenshot of each page lands in WEFT_SHOTS.  Prints
// TAP.
//
//   WEFT_URL=http://127.0.0.1:8091 WEFT_SHOTS=dir WEFT_PAGES=json \
//       node tests/browser/run.js
//
// WEFT_PAGES: [{"name": "paper", "path": "/papers/..."}, ...], the
// public pages to check (the wrapper, t_browser.sh, picks real ids).
'use strict';
const fs = require('fs');
const path = require('path');
const puppeteer = require('puppeteer-core');

const base = process.env.WEFT_URL;
const maildir = process.env.WEFT_MAIL;
const shots = process.env.WEFT_SHOTS;
const pages = JSON.parse(process.env.WEFT_PAGES || '[]');
// WEFT_BROWSER_ONLY=regexp: only the pages whose name matches, no flow
// (for working on a page).
const only = process.env.WEFT_BROWSER_ONLY ?
    new RegExp(process.env.WEFT_BROWSER_ONLY) : null;
const chromium = process.env.WEFT_CHROMIUM || '/usr/bin/chromium';
const axeSource = fs.readFileSync(require.resolve('axe-core/axe.min.js'),
    'utf8');
const widths = [
	{ name: 'desktop', width: 1366, height: 900, isMobile: false },
	{ name: 'phone', width: 390, height: 844, isMobile: true,
	  hasTouch: true },
];

let n = 0;
let failed = 0;
function ok(pass, name, diag) {
	n++;
	if (pass) {
		console.log(`ok ${n} - ${name}`);
		return;
	}
	failed++;
	console.log(`not ok ${n} - ${name}`);
	if (diag)
		for (const l of String(diag).split('\n').slice(0, 20))
			console.log(`#   ${l}`);
}

// The elements wider than the viewport (for the diagnostic).
async function overflow(page) {
	return page.evaluate(() => {
		const w = document.documentElement.clientWidth;
		const sw = document.documentElement.scrollWidth;
		if (sw <= w)
			return null;
		const wide = [];
		for (const el of document.querySelectorAll('body *')) {
			const r = el.getBoundingClientRect();
			if (r.right > w + 1 && r.width > 0) {
				let s = el.tagName.toLowerCase();
				if (el.id)
					s += '#' + el.id;
				if (el.className && typeof el.className === 'string')
					s += '.' + el.className.trim().split(/\s+/).join('.');
				wide.push(`${s} (right ${Math.round(r.right)})`);
			}
			if (wide.length >= 8)
				break;
		}
		return { clientWidth: w, scrollWidth: sw, wide };
	});
}

// axe-core's serious and critical violations (WCAG 2.1 A and AA).
async function axe(page) {
	await page.evaluate(axeSource);
	const res = await page.evaluate(async () => {
		const r = await window.axe.run(document, {
			runOnly: { type: 'tag',
			    values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa',
				'best-practice'] },
			resultTypes: ['violations'],
		});
		return r.violations.map((v) => ({
			id: v.id, impact: v.impact, help: v.help,
			nodes: v.nodes.slice(0, 4).map((x) =>
			    x.target.join(' ') + ': ' +
			    (x.failureSummary || '').replace(/\s+/g, ' ')),
		}));
	});
	return res.filter((v) => v.impact === 'serious' ||
	    v.impact === 'critical');
}

// Opens path and runs every check; returns the response status.
async function check(page, state, vp, name, url, want) {
	const errors = [];
	page.on('console', (m) => {
		if (m.type() !== 'error')
			return;
		// The error page's own status is reported as a failed load.
		if (want && m.location().url === base + url)
			return;
		errors.push(m.text());
	});
	page.on('pageerror', (e) => errors.push(String(e)));
	const resp = await page.goto(base + url, { waitUntil: 'load' });
	const status = resp ? resp.status() : 0;
	const label = `${state} ${vp.name} ${name}`;
	ok(status === (want || 200), `${label}: ${url} answers ${want || 200}`,
	    `status ${status}`);
	const of = await overflow(page);
	ok(of === null, `${label}: no horizontal overflow`,
	    of && `scrollWidth ${of.scrollWidth} > ${of.clientWidth}\n` +
	    of.wide.join('\n'));
	const v = await axe(page);
	ok(v.length === 0, `${label}: no serious or critical axe violation`,
	    v.map((x) => `${x.impact} ${x.id}: ${x.help}\n  ` +
	    x.nodes.join('\n  ')).join('\n'));
	ok(errors.length === 0, `${label}: no console error`,
	    errors.join('\n'));
	if (shots)
		await page.screenshot({ fullPage: true,
		    path: path.join(shots, `${state}-${vp.name}-${name}.png`) });
	page.removeAllListeners('console');
	page.removeAllListeners('pageerror');
	return status;
}

async function sweep(browser, state, list) {
	if (only)
		list = list.filter((p) => only.test(p.name));
	for (const vp of widths) {
		const page = await browser.newPage();
		await page.setViewport(vp);
		// Every page as a first visit: 200, not a revalidated 304.
		await page.setCacheEnabled(false);
		for (const p of list)
			await check(page, state, vp, p.name, p.path, p.status);
		await page.close();
	}
}

// Clicks the submit button of the form whose action ends with action,
// and waits for the page it leads to.
async function submit(page, action) {
	const sel = `form[action$="${action}"] button[type="submit"]`;
	const btn = await page.$(sel);
	ok(btn !== null, `a button submits ${action}`);
	if (btn === null)
		return null;
	const [resp] = await Promise.all([
		page.waitForNavigation({ waitUntil: 'load' }),
		btn.click(),
	]);
	return resp;
}

// The link to path in the newest message to addr in the maildir, waiting
// up to 10 s for it (quoted-printable decoded).
async function mailLink(addr, linkPath) {
	const re = new RegExp('https?://[^/\\s]+' + linkPath.replace(/\//g, '\\/') +
	    '\\?token=[A-Za-z0-9_-]+');
	for (let i = 0; i < 50; i++) {
		let best = null;
		for (const sub of ['new', 'cur']) {
			const d = path.join(maildir, sub);
			if (!fs.existsSync(d))
				continue;
			for (const f of fs.readdirSync(d)) {
				const fp = path.join(d, f);
				const raw = fs.readFileSync(fp, 'utf8');
				if (!new RegExp('^To: .*' + addr.replace(/[.]/g, '\\.'),
				    'mi').test(raw))
					continue;
				const t = fs.statSync(fp).mtimeMs;
				if (best === null || t > best.t)
					best = { t, raw };
			}
		}
		if (best !== null) {
			const body = best.raw.replace(/=\r?\n/g, '')
			    .replace(/=([0-9A-F]{2})/g,
				(_, h) => String.fromCharCode(parseInt(h, 16)));
			const m = body.match(re);
			if (m)
				return m[0];
		}
		await new Promise((r) => setTimeout(r, 200));
	}
	return null;
}

// Chat, signed in (issue 17): from a paper's page, "Ask about this
// paper"; static/chat.js shows the answer growing as the stream comes
// (the fake LLM sends it slowly: "fake:slow"), then opens the kept
// conversation.  Without JavaScript the form posts as usual and the
// conversation page shows the finished answer, on reload too.  With no
// LLM endpoint (WEFT_CHAT_LLM unset) the extracts come in one piece:
// the growing is not checked.
async function chat(ctx, paper) {
	const llm = process.env.WEFT_CHAT_LLM === '1';
	const page = await ctx.newPage();
	await page.setViewport(widths[0]);
	const errors = [];
	page.on('pageerror', (e) => errors.push(String(e)));
	await page.goto(base + paper.path, { waitUntil: 'load' });
	const link = await page.$('a[href^="/chat?scope=paper&id="]');
	ok(link !== null, 'the paper page offers Ask about this paper');
	if (link === null)
		return;
	await Promise.all([
		page.waitForNavigation({ waitUntil: 'load' }),
		link.click(),
	]);
	ok(new URL(page.url()).pathname === '/chat' &&
	    (await page.$('form.chat-ask textarea[name="question"]')) !== null,
	    'it opens the chat with the question form', page.url());
	await page.type('#q', 'What is this paper about?' +
	    (llm ? ' fake:slow' : ''));
	// The answer's text, sampled while the stream comes in.
	const seen = [];
	const sampling = setInterval(() => {
		page.evaluate(() => {
			const a = document.querySelector('.chat-answer');
			return a ? a.textContent.length : -1;
		}).then((n) => seen.push(n), () => {});
	}, 50);
	const nav = page.waitForNavigation({ waitUntil: 'load',
	    timeout: 30000 });
	await page.click('form.chat-ask button[type="submit"]');
	await nav;
	clearInterval(sampling);
	const lengths = [...new Set(seen.filter((n) => n > 0))];
	if (llm)
		ok(lengths.length >= 3 && lengths.every((n, i) =>
		    i === 0 || n > lengths[i - 1]),
		    'the answer grows on the page as it streams',
		    `lengths seen: ${lengths.join(' ')}`);
	const conv = new URL(page.url()).pathname;
	ok(/^\/chat\/[0-9]+$/.test(conv),
	    'after the stream the page is the conversation', page.url());
	const answer = await page.$eval('.chat-answer',
	    (a) => a.textContent).catch(() => '');
	ok(llm ? /Paper \[1\] is titled/.test(answer) :
	    /Extracts from the papers/.test(answer),
	    'the conversation shows the finished answer', answer.slice(0, 200));
	ok(await page.$('a[href^="/papers/"]') !== null,
	    'with its reference linked to the paper');
	ok(errors.length === 0, 'no script error while streaming',
	    errors.join('\n'));
	await page.close();

	// Without JavaScript: a plain form post, and the answer on reload.
	const nojs = await ctx.newPage();
	await nojs.setViewport(widths[1]);
	await nojs.setJavaScriptEnabled(false);
	await nojs.goto(base + paper.path, { waitUntil: 'load' });
	const link2 = await nojs.$('a[href^="/chat?scope=paper&id="]');
	await Promise.all([
		nojs.waitForNavigation({ waitUntil: 'load' }),
		link2.click(),
	]);
	await nojs.type('#q', 'What method does it use?');
	await Promise.all([
		nojs.waitForNavigation({ waitUntil: 'load', timeout: 30000 }),
		nojs.click('form.chat-ask button[type="submit"]'),
	]);
	const noJsConv = new URL(nojs.url()).pathname;
	ok(/^\/chat\/[0-9]+$/.test(noJsConv),
	    'without JavaScript the form leads to the conversation', nojs.url());
	await nojs.reload({ waitUntil: 'load' });
	const text = await nojs.$eval('.chat-turn:last-of-type .chat-answer',
	    (a) => a.textContent).catch(() => '');
	ok(text.length > 20 && /\[1\]/.test(text),
	    '... and shows the finished answer, cited, on reload',
	    text.slice(0, 200));
	await nojs.close();
}

async function main() {
	if (shots)
		fs.mkdirSync(shots, { recursive: true });
	const browser = await puppeteer.launch({
		executablePath: chromium,
		headless: true,
		args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage',
		    '--no-first-run', '--disable-extensions'],
	});
	try {
		const ctx = await browser.createBrowserContext();
		const signedOut = pages.concat([
			{ name: 'signin', path: '/signin' },
			{ name: 'signup', path: '/signup' },
			{ name: 'not-found', path: '/no/such/page', status: 404 },
		]);
		await sweep(ctx, 'out', signedOut);
		if (only) {
			console.log(`1..${n}`);
			process.exit(failed ? 1 : 0);
		}

		// A new user, by clicking.
		const page = await ctx.newPage();
		await page.setViewport(widths[0]);
		await page.goto(base + '/signup', { waitUntil: 'load' });
		const email = `browser.${process.pid}.${Date.now()}@example.org`;
		await page.type('#email', email);
		const pw = 'a browser passphrase ' + Date.now();
		await page.type('#password', pw);
		let r = await submit(page, '/signup');
		ok(/Check your email/.test(await page.content()),
		    'signing up asks to check the email', page.url());
		const link = await mailLink(email, '/account/verify');
		ok(link !== null, 'the verification mail arrives with its link');
		await page.goto(link.replace(/^https?:\/\/[^/]+/, base),
		    { waitUntil: 'load' });
		await page.type('form[action$="/account/verify"] ' +
		    'input[name="password"]', pw);
		r = await submit(page, '/account/verify');
		ok(r !== null && new URL(page.url()).pathname ===
		    '/account/welcome', 'verifying leads to the welcome page',
		    page.url());

		const researcher = pages.find((p) => p.name === 'researcher');
		await page.goto(base + researcher.path, { waitUntil: 'load' });
		r = await submit(page, '/follow');
		const following = await page.$('form[action$="/unfollow"]');
		ok(following !== null, 'after Follow the page offers Unfollow',
		    page.url());

		await page.goto(base + '/account', { waitUntil: 'load' });
		r = await submit(page, '/account/feed-token');
		const body = await page.content();
		ok(/\/rss\/feed\/[A-Za-z0-9_-]+\.xml/.test(body),
		    'making a feed URL shows it');
		await page.close();

		await chat(ctx, pages.find((p) => p.name === 'paper'));

		await sweep(ctx, 'in', pages.concat([
			{ name: 'account', path: '/account' },
			{ name: 'welcome', path: '/account/welcome' },
			{ name: 'feed', path: '/feed' },
			{ name: 'chat', path: '/chat' },
		]));

		const out = await ctx.newPage();
		await out.setViewport(widths[1]);
		await out.goto(base + '/account', { waitUntil: 'load' });
		await submit(out, '/signout');
		await out.goto(base + researcher.path, { waitUntil: 'load' });
		const signin = await out.$('a[href="/signin"]');
		ok(signin !== null, 'after signing out the header offers Sign in');
		await out.close();
		await ctx.close();
	} finally {
		await browser.close();
	}
	console.log(`1..${n}`);
	if (shots)
		console.log(`# screenshots: ${shots}`);
	process.exit(failed ? 1 : 0);
}

main().catch((e) => {
	console.log(`not ok ${n + 1} - the browser run finished`);
	console.log(`#   ${String(e && e.stack || e).split('\n').join('\n#   ')}`);
	console.log(`1..${n + 1}`);
	process.exit(1);
});
