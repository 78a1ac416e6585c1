-- 0025_paper_analysis.sql -- what "weft-harvest analyse" writes per
-- paper (issue 17, paper analysis): a one- or two-sentence summary, a
-- few topics (key phrases), the paper's type, a readable research field,
-- and, from a language model only, novelty and a significance score
-- with its rationale.  analysed_at NULL means "not analysed yet": the
-- pages show null for all of them, and analyse picks such rows up first
-- (resumable: a run that stops leaves the rest NULL).
--
-- analysis_model names what produced the row: "extractive-1" (no
-- endpoint: abstract sentences, TF-IDF key phrases, rules; see
-- modules/harvest/analyse_rules.c) or the LLM's model name.  A paper the
-- LLM could not analyse after its retries keeps analysed_at NULL and
-- records analysis_error and analysis_tries, so that the next run skips
-- it unless asked (--retry-failed).
--
-- The columns live on papers, not in a table of their own: cards show
-- paper_type and search filters on it, and a join per card would cost
-- more than the few hundred bytes a row grows by (adding nullable
-- columns rewrites nothing).  Forward-only: never edit once landed.

ALTER TABLE papers
	ADD COLUMN analysed_at timestamptz,
	ADD COLUMN analysis_model text,
	ADD COLUMN summary text,
	ADD COLUMN topics text[],
	ADD COLUMN paper_type text
	    CONSTRAINT papers_paper_type CHECK (paper_type IN ('empirical',
	        'method', 'system', 'benchmark', 'survey', 'theory',
	        'position')),
	ADD COLUMN research_field text,
	ADD COLUMN novelty text,
	ADD COLUMN significance_score smallint
	    CONSTRAINT papers_significance CHECK (significance_score
	        BETWEEN 1 AND 10),
	ADD COLUMN significance_rationale text,
	ADD COLUMN analysis_error text,
	ADD COLUMN analysis_tries smallint NOT NULL DEFAULT 0;

-- The search filter ?paper_type= and analyse's "what is left" scan.
CREATE INDEX papers_paper_type ON papers (paper_type, published DESC)
	WHERE paper_type IS NOT NULL;
CREATE INDEX papers_unanalysed ON papers (id) WHERE analysed_at IS NULL;
