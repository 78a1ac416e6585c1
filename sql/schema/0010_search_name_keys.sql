-- 0010_search_name_keys.sql -- name search without unaccenting every
-- candidate row: the key names are compared in (weft_name_key: lower-cased,
-- unaccented) becomes a stored column, search_key, of researchers and
-- institutions (researchers.name_key is the matcher's, another key), and
-- the trigram indexes of 0005 move onto it.  Before, the index found
-- candidates by the expression but each one's recheck and similarity
-- computed unaccent() again: hundreds of dictionary look-ups for a common
-- word ("learning": 680 candidate institutions), the largest cost of a
-- search with no type.  Forward-only: never edit once landed; add another.

ALTER TABLE researchers
	ADD COLUMN search_key text GENERATED ALWAYS AS (weft_name_key(name)) STORED;
ALTER TABLE institutions
	ADD COLUMN search_key text GENERATED ALWAYS AS (weft_name_key(name)) STORED;

DROP INDEX researchers_name_trgm;
DROP INDEX institutions_name_trgm;
CREATE INDEX researchers_name_trgm ON researchers
	USING gin (search_key gin_trgm_ops);
CREATE INDEX institutions_name_trgm ON institutions
	USING gin (search_key gin_trgm_ops);
