-- Public search on Postgres: the listing's own columns, folded (NFKC, lower case, accents off),
-- indexed for whole and prefix words (full-text, 'simple' configuration: place names and
-- addresses are not stemmed) and for any part of a word of three or more characters (trigrams).
-- Every property is a public listing, so the index is on properties itself and is never stale.
-- docs/decisions/public-pages.md "Public search on a search index".
CREATE EXTENSION IF NOT EXISTS unaccent;
CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- unaccent() is STABLE (its dictionary could change); naming the dictionary makes the result
-- depend on the input alone, which an index expression needs.
CREATE FUNCTION public_search_fold(value text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT lower(public.unaccent('public.unaccent'::regdictionary, normalize(value, NFKC))) $$;

CREATE FUNCTION property_search_text(title text, city text, address text, description text, features text[]) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT public_search_fold(concat_ws(' ', title, city, address, description, array_to_string(features, ' '))) $$;

CREATE INDEX "properties_search_words_idx" ON "properties"
  USING GIN (to_tsvector('simple'::regconfig, property_search_text("title", "city", "address", "description", "features")));
CREATE INDEX "properties_search_trigram_idx" ON "properties"
  USING GIN (property_search_text("title", "city", "address", "description", "features") gin_trgm_ops);
CREATE INDEX "properties_search_city_idx" ON "properties" (public_search_fold("city"), "title", "id");
CREATE INDEX "properties_title_id_idx" ON "properties" ("title", "id");
