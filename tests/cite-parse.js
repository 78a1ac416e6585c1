// cite-parse.js FILE FORMAT -- parses an export with citation-js (RIS
// through @citation-js/plugin-ris, CSL-JSON by @citation-js/core) and
// prints the items as CSL-JSON, or exits 1 when it does not parse.
// Used by tests/integration/t_export.sh.
'use strict';
const fs = require('fs');
const { Cite } = require('@citation-js/core');
require('@citation-js/plugin-ris');

const [file, format] = process.argv.slice(2);
const text = fs.readFileSync(file, 'utf8');
try {
	const input = format === 'csl' ? JSON.parse(text) : text;
	const cite = new Cite(input, format === 'ris' ?
	    { forceType: '@ris/file' } : {});
	process.stdout.write(JSON.stringify(cite.data) + '\n');
} catch (e) {
	process.stderr.write(String(e) + '\n');
	process.exit(1);
}
