// tests/openapi-responses.js OPENAPI CASES -- real responses against the
// OpenAPI document (t_openapi_responses.sh writes CASES and runs this).
//
// CASES has one request a line, fields separated by tabs:
//   STATUS METHOD PATH URL ACCEPT COOKIE BODY
// PATH is the documented path ("/papers/{paper}"), URL the one to
// request, ACCEPT the Accept header ("-": none), COOKIE a Cookie header
// ("-": none), BODY a form body for a POST ("-": none).  Each request
// must answer STATUS, a status its operation documents, with a
// Content-Type that response documents, and a JSON body must be valid
// against the documented schema (JSON Schema 2020-12, ajv, formats
// checked).  Then: every operation was requested in every media type of
// its success response, and every JSON schema a response can carry is
// strict (each object says additionalProperties and required), so that
// an undocumented field or a documented one that went missing fails.
// Output: TAP.
"use strict";
const fs = require("fs");
const Ajv2020 = require("ajv/dist/2020");
const addFormats = require("ajv-formats");

const [docFile, casesFile] = process.argv.slice(2);
const base = process.env.WEFT_URL;
if (!docFile || !casesFile || !base) {
	console.error("usage: WEFT_URL=... node openapi-responses.js OPENAPI CASES");
	process.exit(2);
}
const doc = JSON.parse(fs.readFileSync(docFile, "utf8"));
const METHODS = ["get", "post", "put", "delete", "patch"];

// TAP numbering continues the calling test's (TAP_START, default 0);
// the last line, "# counts N FAILED", lets it carry on counting.
let n = +(process.env.TAP_START || 0), failed = 0;
function ok(cond, name, diag) {
	n++;
	console.log(`${cond ? "ok" : "not ok"} ${n} - ${name}`);
	if (!cond) {
		failed++;
		for (const l of String(diag || "").split("\n").slice(0, 12))
			if (l)
				console.log(`#   ${l}`);
	}
	return cond;
}

// "#/components/x/Y" -> the object.
function deref(o) {
	while (o && o.$ref) {
		const parts = o.$ref.replace(/^#\//, "").split("/")
		    .map((p) => p.replace(/~1/g, "/").replace(/~0/g, "~"));
		o = parts.reduce((a, p) => a && a[p], doc);
	}
	return o;
}

// The schemas, with their $refs pointing into one registered document.
const ajv = new Ajv2020({ allErrors: true, strict: true });
addFormats(ajv);
ajv.addKeyword("example"); // OpenAPI's, deprecated but allowed in 3.1
const COMP = "weft:components";
function rewrite(o) {
	if (Array.isArray(o))
		return o.map(rewrite);
	if (o && typeof o === "object") {
		const r = {};
		for (const [k, v] of Object.entries(o))
			r[k] = k === "$ref" && typeof v === "string" &&
			    v.startsWith("#/components/schemas/") ?
			    `${COMP}#/$defs/${v.slice(21)}` : rewrite(v);
		return r;
	}
	return o;
}
ajv.addSchema({ $id: COMP, $defs: rewrite(doc.components.schemas || {}) });
// A schema that does not compile (strict mode: an unknown keyword, a
// required property not defined) validates nothing: every use fails.
const compiled = new Map();
function validator(schema) {
	if (!compiled.has(schema)) {
		let v;
		try {
			v = ajv.compile(rewrite(schema));
		} catch (e) {
			v = () => false;
			v.errors = [{ instancePath: "", message: e.message,
			    schemaPath: "" }];
			v.sticky = v.errors;
		}
		compiled.set(schema, v);
	}
	const v = compiled.get(schema);
	if (v.sticky)
		v.errors = v.sticky;
	return v;
}

// Every schema reachable from s: an object must say additionalProperties
// (false, or a schema for a map) and, when it has properties, required.
function loose(s, where, out, seen) {
	if (!s || typeof s !== "object" || seen.has(s))
		return;
	seen.add(s);
	if (s.$ref) {
		loose(deref(s), s.$ref, out, seen);
		return;
	}
	const types = [].concat(s.type || []);
	if (types.includes("object")) {
		if (!("additionalProperties" in s))
			out.push(`${where}: no additionalProperties`);
		if (s.properties && !s.required)
			out.push(`${where}: no required`);
	}
	for (const [k, v] of Object.entries(s.properties || {}))
		loose(v, `${where}.${k}`, out, seen);
	for (const k of ["items", "additionalProperties", "not"])
		loose(s[k], `${where}.${k}`, out, seen);
	for (const k of ["oneOf", "anyOf", "allOf", "prefixItems"])
		for (const [i, v] of (s[k] || []).entries())
			loose(v, `${where}.${k}[${i}]`, out, seen);
}

const cases = fs.readFileSync(casesFile, "utf8").split("\n")
    .filter((l) => l.trim() !== "" && !l.startsWith("#"))
    .map((l) => {
	const [status, method, path, url, accept, cookie, body] = l.split("\t");
	return { status: +status, method, path, url, accept, cookie, body };
    });

const covered = new Set(); // "get /x 200 text/html"
const usedResponses = new Set(); // "#/components/responses/NotFound"

async function run(c) {
	const name = `${c.method} ${c.url}` +
	    (c.accept !== "-" ? ` (${c.accept})` : "") +
	    (c.cookie !== "-" ? " with a cookie" : "");
	const op = (doc.paths[c.path] || {})[c.method.toLowerCase()];
	if (!ok(op, `${name}: ${c.method} ${c.path} is documented`))
		return;
	const headers = { Origin: base };
	if (c.accept !== "-")
		headers.Accept = c.accept;
	// COOKIE is a Cookie header, or "Name: value" for another header
	// (the MCP server's Mcp-Session-Id).
	if (c.cookie !== "-" && /^[A-Za-z-]+: /.test(c.cookie))
		headers[c.cookie.split(": ")[0]] = c.cookie.slice(
		    c.cookie.indexOf(": ") + 2);
	else if (c.cookie !== "-")
		headers.Cookie = c.cookie;
	let body;
	if (c.body && c.body !== "-") {
		body = c.body;
		// A JSON body (the MCP server's JSON-RPC) or a form.
		headers["Content-Type"] = /^[[{]/.test(body) ?
		    "application/json" : "application/x-www-form-urlencoded";
	}
	let res, text;
	try {
		res = await fetch(base + c.url, { method: c.method, headers, body,
		    redirect: "manual" });
		text = await res.text();
	} catch (e) {
		ok(false, `${name}: answers`, e.message);
		return;
	}
	const ctype = (res.headers.get("content-type") || "")
	    .split(";")[0].trim();
	if (!ok(res.status === c.status, `${name}: ${c.status}`,
	    `got ${res.status} ${ctype}: ${text.slice(0, 300)}`))
		return;
	const ref = op.responses[String(c.status)];
	const resp = deref(ref);
	if (!ok(resp, `${name}: ${c.status} is documented for ` +
	    `${c.method} ${c.path}`))
		return;
	if (ref.$ref)
		usedResponses.add(ref.$ref);
	const content = resp.content || {};
	if (Object.keys(content).length === 0) {
		ok(text === "" || ctype !== "application/json",
		    `${name}: no body documented, none in JSON`, text.slice(0, 200));
		covered.add(`${c.method} ${c.path} ${c.status} -`);
		return;
	}
	if (!ok(ctype in content, `${name}: Content-Type ${ctype} is ` +
	    `documented for ${c.status}`, `documented: ` +
	    Object.keys(content).join(", ")))
		return;
	covered.add(`${c.method} ${c.path} ${c.status} ${ctype}`);
	const schema = content[ctype].schema;
	if (ctype !== "application/json") {
		// Text against its schema (a string); a success is not empty.
		const v = validator(schema || {});
		ok(v(text) && (text.length > 0 || !/^2/.test(c.status)),
		    `${name}: a ${ctype} body as documented`,
		    JSON.stringify(v.errors || "empty"));
		return;
	}
	let json;
	try {
		json = JSON.parse(text);
	} catch (e) {
		ok(false, `${name}: JSON`, e.message);
		return;
	}
	const v = validator(schema || {});
	ok(v(json), `${name}: the body matches its schema`,
	    (v.errors || []).map((e) => `${e.instancePath || "/"} ` +
	    `${e.message} ${e.params && Object.keys(e.params).length ?
	    JSON.stringify(e.params) : ""} (${e.schemaPath})`).join("\n"));
}

(async () => {
	for (const c of cases)
		await run(c);
	// Coverage: every operation, every media type of its 2xx/3xx.
	const missing = [];
	for (const [path, item] of Object.entries(doc.paths))
		for (const m of METHODS) {
			const op = item[m];
			if (!op)
				continue;
			const codes = Object.keys(op.responses)
			    .filter((s) => /^2/.test(s));
			for (const s of codes) {
				const types = Object.keys(deref(op.responses[s])
				    .content || {});
				for (const t of types.length ? types : ["-"])
					if (!covered.has(`${m.toUpperCase()} ${path} ${s} ${t}`))
						missing.push(`${m.toUpperCase()} ${path} ${s} ${t}`);
			}
			// A form's POST answers 303: one representation of it
			// (every one is checked on GET /account's).
			const redirect = Object.keys(op.responses)
			    .filter((s) => /^3/.test(s))[0];
			if (codes.length === 0 && redirect &&
			    ![...covered].some((k) => k.startsWith(
			    `${m.toUpperCase()} ${path} ${redirect} `)))
				missing.push(`${m.toUpperCase()} ${path} ${redirect}`);
		}
	ok(missing.length === 0, "every documented operation was requested " +
	    "in every media type of its success response (a POST's 303 in one)",
	    missing.map((x) => `not requested: ${x}`).join("\n"));
	for (const r of ["BadRequest", "NotFound", "NotAcceptable", "Moved",
	    "Forbidden", "SeeOther"])
		ok(usedResponses.has(`#/components/responses/${r}`),
		    `a real ${r} response was checked`);
	// Strictness of every JSON schema a response documents.
	const lax = [];
	const seen = new Set();
	for (const [path, item] of Object.entries(doc.paths))
		for (const m of METHODS)
			for (const [s, r] of Object.entries((item[m] || {}).responses ||
			    {})) {
				const j = (deref(r).content || {})["application/json"];
				if (j)
					loose(j.schema, `${m} ${path} ${s}`, lax, seen);
			}
	ok(lax.length === 0, "every JSON response schema is closed " +
	    "(additionalProperties) and says what is required", lax.join("\n"));
	if (!process.env.TAP_START)
		console.log(`1..${n}`);
	console.log(`# counts ${n} ${failed}`);
	process.exit(failed ? 1 : 0);
})();
