#!/usr/bin/env python3
"""tests/bench/corpus/oai_pages.py -- a gen.py listing as OAI-PMH pages.

    oai_pages.py LISTING.jsonl.gz DIR [PAGE]

Writes the papers of LISTING (gen.py's JSON lines) as ListRecords
responses in the arXiv metadata format, PAGE (1,000, arXiv's page) records
each: DIR/first.xml, then DIR/<token>.xml for each resumptionToken the
page before names, the last with an empty token.  tests/bench/
refresh_daily.sh (SOURCE=oai) serves them from a private nginx to
`weft-harvest arxiv oai`, so that a day is written as the daily harvest
writes it, a transaction per page.  Authors are split at the last space
(keyname, forenames), as arXiv lists most of them.  Prints the listing's
first date.
"""
import gzip
import json
import os
import sys
from xml.sax.saxutils import escape

HEAD = ('<?xml version="1.0" encoding="UTF-8"?>\n'
        '<OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/">\n'
        '<responseDate>2026-12-05T00:00:00Z</responseDate>\n'
        '<request verb="ListRecords" metadataPrefix="arXiv">'
        'http://export.arxiv.org/oai2</request>\n<ListRecords>\n')


def record(p):
    date = p['_listing_date']
    authors = []
    for name in p['authors']:
        fore, _, key = name.rpartition(' ')
        authors.append('<author><keyname>%s</keyname>%s</author>' % (
            escape(key), '<forenames>%s</forenames>' % escape(fore)
            if fore else ''))
    comment = p.get('comment')
    return ('<record><header><identifier>oai:arXiv.org:%s</identifier>'
            '<datestamp>%s</datestamp><setSpec>cs</setSpec></header>'
            '<metadata><arXiv xmlns="http://arxiv.org/OAI/arXiv/">'
            '<id>%s</id><created>%s</created><authors>%s</authors>'
            '<title>%s</title><categories>%s</categories>%s'
            '<abstract>%s</abstract></arXiv></metadata></record>\n') % (
        escape(p['id']), date, escape(p['id']), date, ''.join(authors),
        escape(p['title']), escape(' '.join(p['categories'])),
        '<comments>%s</comments>' % escape(comment) if comment else '',
        escape(p['summary']))


def main():
    src, out = sys.argv[1], sys.argv[2]
    page = int(sys.argv[3]) if len(sys.argv) > 3 else 1000
    with gzip.open(src, 'rt') as f:
        papers = [json.loads(line) for line in f if line.strip()]
    os.makedirs(out, exist_ok=True)
    name = 'first'
    for i in range(0, len(papers), page):
        token = 'day%d' % (i + page) if i + page < len(papers) else ''
        with open(os.path.join(out, name + '.xml'), 'w') as f:
            f.write(HEAD)
            f.writelines(record(p) for p in papers[i:i + page])
            f.write('<resumptionToken cursor="%d" completeListSize="%d">'
                    '%s</resumptionToken>\n</ListRecords>\n</OAI-PMH>\n'
                    % (i, len(papers), token))
        name = token
    print(min(p['_listing_date'] for p in papers))


main()
