-- 0024_chat.sql -- chat with the papers (issue 17): the "weft-chat"
-- pool's role, and the conversations it keeps per user.
--
-- "weft-chat" reads the public data, of the personal data only what
-- it needs (a session's user by token hash; whom a user follows, by
-- number), and alone with accounts reads and writes chat_conversations
-- and chat_turns.  weft_private() is redefined so that a later personal
-- table is closed to chat too.

DO $$
BEGIN
	IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'weft-chat') THEN
		BEGIN
			CREATE ROLE "weft-chat" LOGIN;
		EXCEPTION WHEN insufficient_privilege THEN
			RAISE EXCEPTION 'role "weft-chat" is missing and % may not create it', current_user
			    USING HINT = 'as postgres: createuser weft-chat';
		END;
	END IF;
END
$$;
GRANT USAGE ON SCHEMA public TO "weft-chat";
GRANT SELECT ON ALL TABLES IN SCHEMA public TO "weft-chat";
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT ON TABLES
	TO "weft-chat";

CREATE OR REPLACE FUNCTION weft_private(tbl regclass) RETURNS void
LANGUAGE plpgsql AS $fn$
DECLARE
	seq regclass;
BEGIN
	EXECUTE format('REVOKE ALL ON %s FROM "weft-pages", "weft-feeds", '
	    '"weft-chat"', tbl);
	EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON %s '
	    'TO "weft-accounts"', tbl);
	FOR seq IN SELECT d.objid::regclass
	             FROM pg_depend d
	             JOIN pg_class s ON s.oid = d.objid AND s.relkind = 'S'
	            WHERE d.refobjid = tbl AND d.deptype IN ('a', 'i')
	LOOP
		EXECUTE format('REVOKE ALL ON SEQUENCE %s FROM "weft-pages", '
		    '"weft-feeds", "weft-chat"', seq);
		EXECUTE format('GRANT USAGE, SELECT ON SEQUENCE %s '
		    'TO "weft-accounts"', seq);
	END LOOP;
END
$fn$;
REVOKE ALL ON FUNCTION weft_private(regclass) FROM PUBLIC;

CREATE TABLE chat_conversations (
	id              bigserial PRIMARY KEY,
	user_id         bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
	title           text NOT NULL,          -- the first question, cut
	created_at      timestamptz NOT NULL DEFAULT now(),
	updated_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX chat_conversations_user ON chat_conversations (user_id, updated_at DESC);

-- One question and its answer.  scope: {"kind":"paper","id":"2512.20345"};
-- refs: [{"n":1,"arxiv_id":…,"title":…,"path":…}]; mode: "llm" or
-- "extractive"; partial: the upstream failed mid-answer (note says why).
CREATE TABLE chat_turns (
	id              bigserial PRIMARY KEY,
	conversation_id bigint NOT NULL REFERENCES chat_conversations (id) ON DELETE CASCADE,
	question        text NOT NULL,
	answer          text NOT NULL,
	scope           jsonb NOT NULL,
	refs            jsonb NOT NULL DEFAULT '[]',
	mode            text NOT NULL CHECK (mode IN ('llm', 'extractive')),
	model           text,
	prompt_tokens   integer,
	completion_tokens integer,
	partial         boolean NOT NULL DEFAULT false,
	note            text,
	created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX chat_turns_conversation ON chat_turns (conversation_id, id);

-- Every personal table, chat's included, closed to pages, feeds and chat.
DO $$
DECLARE
	t regclass;
BEGIN
	FOR t IN
		WITH RECURSIVE personal(rel) AS (
			SELECT 'users'::regclass
			UNION
			SELECT c.conrelid::regclass
			  FROM pg_constraint c
			  JOIN personal p ON c.confrelid = p.rel
			 WHERE c.contype = 'f')
		SELECT rel FROM personal
	LOOP
		PERFORM weft_private(t);
	END LOOP;
END
$$;

-- What chat needs of the personal data, by column (sql/queries/chat.sql).
GRANT SELECT (token_hash, user_id, expires_at) ON sessions TO "weft-chat";
GRANT SELECT (user_id, researcher_id) ON follows TO "weft-chat";
GRANT SELECT, INSERT, UPDATE, DELETE ON chat_conversations, chat_turns
	TO "weft-chat";
GRANT USAGE, SELECT ON SEQUENCE chat_conversations_id_seq, chat_turns_id_seq
	TO "weft-chat";
-- weft_private() above revoked every grant of feeds on the personal
-- tables, the column grants of 0017 included: given back.
GRANT SELECT (user_id, token_hash) ON feed_tokens TO "weft-feeds";
GRANT SELECT (user_id, researcher_id) ON follows TO "weft-feeds";
