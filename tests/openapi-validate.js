// tests/openapi-validate.js FILE -- validates an OpenAPI document with
// @apidevtools/swagger-parser: every $ref resolves and the document
// matches the official OpenAPI JSON Schema of its version.  For 3.1 that
// is structure only; the semantic rules (path parameters declared,
// operationIds unique, schema types) come from `redocly lint`, which
// t_feeds_guide.sh runs as well.  Exit 0 when valid; otherwise the
// problem on stderr and exit 1.
"use strict";
const SwaggerParser = require("@apidevtools/swagger-parser");

const file = process.argv[2];
if (!file) {
	console.error("usage: node openapi-validate.js FILE");
	process.exit(2);
}
SwaggerParser.validate(file)
	.then((api) => {
		const n = Object.keys(api.paths || {}).length;
		console.log(`valid: ${api.info.title} ${api.info.version}, ` +
		    `OpenAPI ${api.openapi}, ${n} paths`);
	})
	.catch((err) => {
		console.error(err.message);
		process.exit(1);
	});
