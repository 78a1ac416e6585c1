-- 0001_init.sql -- papers, researchers, authorships, institutions.
-- Forward-only: never edit a migration once it has landed; add another.
-- Unknown metrics are NULL, never 0.

CREATE TABLE papers (
	id              bigserial PRIMARY KEY,
	arxiv_id        text NOT NULL UNIQUE,   -- "2512.20345", "math.GT/0309136"
	title           text NOT NULL,
	abstract        text NOT NULL DEFAULT '',
	comment         text,
	categories      text[] NOT NULL DEFAULT '{}',  -- primary first
	primary_category text NOT NULL,
	published       date,                   -- first version (or listing) date
	updated         date,                   -- latest version date
	versions        jsonb NOT NULL DEFAULT '[]',   -- [{"version":1,"date":"2007-04-02"}]
	doi             text,
	journal_ref     text,
	license         text,
	citation_count  integer,                -- NULL: unknown
	citation_source text,                   -- 'openalex' | 's2'
	slug            text NOT NULL,
	author_count    integer NOT NULL DEFAULT 0,
	fully_matched   boolean NOT NULL DEFAULT false,  -- every author matched
	source          text NOT NULL,          -- where the row came from
	created_at      timestamptz NOT NULL DEFAULT now(),
	modified_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX papers_published ON papers (published DESC, id DESC);
CREATE INDEX papers_citations ON papers (citation_count DESC NULLS LAST, id DESC);
CREATE INDEX papers_categories ON papers USING gin (categories);
CREATE INDEX papers_primary ON papers (primary_category, published DESC);

CREATE TABLE researchers (
	id              bigserial PRIMARY KEY,
	name            text NOT NULL,          -- display name
	name_key        text NOT NULL,          -- normalised, for same-name groups
	slug            text NOT NULL,
	openalex_id     text UNIQUE,            -- "A5023888391"
	s2_id           text UNIQUE,
	orcid           text UNIQUE,            -- "0000-0002-1825-0097"
	h_index         integer,                -- NULL: unknown
	citations       bigint,
	works_count     integer,
	metrics_source  text,                   -- 'openalex' | 's2'
	paper_count     integer NOT NULL DEFAULT 0,   -- papers here
	latest_paper    date,
	created_at      timestamptz NOT NULL DEFAULT now(),
	modified_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX researchers_name_key ON researchers (name_key);
CREATE INDEX researchers_directory ON researchers (paper_count DESC, id);

CREATE TABLE authorships (
	paper_id        bigint NOT NULL REFERENCES papers (id) ON DELETE CASCADE,
	position        integer NOT NULL CHECK (position >= 1),
	raw_name        text NOT NULL,
	researcher_id   bigint REFERENCES researchers (id) ON DELETE SET NULL,
	match_reason    text,                   -- why this researcher
	match_score     real,
	PRIMARY KEY (paper_id, position)
);
CREATE INDEX authorships_researcher ON authorships (researcher_id, paper_id);

CREATE TABLE institutions (
	id              bigserial PRIMARY KEY,
	ror_id          text UNIQUE,            -- "02jx3x895"
	openalex_id     text UNIQUE,            -- "I136199984"
	name            text NOT NULL,
	slug            text NOT NULL,
	aliases         text[] NOT NULL DEFAULT '{}',
	country_code    text,
	country_name    text,
	type            text,
	status          text,
	website         text,
	established     integer,
	researcher_count integer NOT NULL DEFAULT 0,
	created_at      timestamptz NOT NULL DEFAULT now(),
	modified_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX institutions_lower_name ON institutions (lower(name));
CREATE INDEX institutions_directory ON institutions (researcher_count DESC, name, id);

CREATE TABLE researcher_institutions (
	researcher_id   bigint NOT NULL REFERENCES researchers (id) ON DELETE CASCADE,
	institution_id  bigint NOT NULL REFERENCES institutions (id) ON DELETE CASCADE,
	source          text NOT NULL,          -- 'openalex' | 's2' | 'arxiv'
	last_known      boolean NOT NULL DEFAULT false,
	first_year      integer,
	last_year       integer,
	PRIMARY KEY (researcher_id, institution_id)
);
CREATE INDEX researcher_institutions_inst ON researcher_institutions (institution_id);

-- Pages a writer changed; the cache consumes this (see the cache issue).
CREATE TABLE stale_pages (
	kind            text NOT NULL,          -- 'paper' | 'researcher' | ...
	entity_id       bigint NOT NULL,
	marked_at       timestamptz NOT NULL DEFAULT now(),
	PRIMARY KEY (kind, entity_id)
);
