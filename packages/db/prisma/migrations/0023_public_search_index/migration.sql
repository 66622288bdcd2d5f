-- Public search on an index instead of a scan (docs/decisions/public-pages.md "Public search on
-- PostgreSQL full-text search").
--
-- One row per public listing, holding what a search hit shows and its words as a tsvector. Every
-- property is a public listing, so the row lives exactly as long as the property (ON DELETE
-- CASCADE); the search-indexing worker rewrites it after every change to what visitors see.
CREATE EXTENSION IF NOT EXISTS unaccent;

-- unaccent() is only STABLE (its dictionary could be swapped); pinning the dictionary makes the
-- folding a fixed function of its input, so the words stored and the words searched fold alike.
CREATE FUNCTION public_search_fold(text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT lower(public.unaccent('public.unaccent'::regdictionary, $1)) $$;

-- The query of a search: every word, folded, as a quoted prefix term, all required. Quoting makes
-- whatever a visitor typed a literal, never tsquery syntax. IMMUTABLE, so the planner computes it
-- while planning and estimates how many listings match instead of guessing.
CREATE FUNCTION public_search_query(words text[]) RETURNS tsquery
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT string_agg(quote_literal(public_search_fold(w)) || ':*', ' & ')::tsquery FROM unnest(words) w $$;

CREATE TABLE "public_search_documents" (
  "propertyId"   TEXT NOT NULL,
  "title"        TEXT NOT NULL,
  "city"         TEXT NOT NULL,
  "address"      TEXT NOT NULL,
  "bedrooms"     INTEGER NOT NULL,
  "bathrooms"    INTEGER NOT NULL,
  "images"       JSONB NOT NULL,
  "cityKey"      TEXT NOT NULL,
  "searchVector" tsvector NOT NULL,
  "builtAt"      TIMESTAMPTZ(3) NOT NULL,
  CONSTRAINT "public_search_documents_pkey" PRIMARY KEY ("propertyId"),
  CONSTRAINT "public_search_documents_propertyId_fkey" FOREIGN KEY ("propertyId")
    REFERENCES "properties"("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- Every query word is a prefix term of one tsquery, answered by this index.
CREATE INDEX "public_search_documents_searchVector_idx" ON "public_search_documents" USING GIN ("searchVector");
-- The city filter, and a search without words walking listings in title order.
CREATE INDEX "public_search_documents_cityKey_idx" ON "public_search_documents" ("cityKey");
CREATE INDEX "public_search_documents_title_propertyId_idx" ON "public_search_documents" ("title", "propertyId");

-- Writes the documents of the given properties from what their public page shows: the listing
-- facts, and the public images in gallery order (originals the agent made public and the APPROVED
-- variants of those: PUBLIC_IMAGE_SQL_CONDITION in packages/services/src/public/public-images.ts,
-- kept equal by public-search-documents.integration.test.ts). The worker calls it after every
-- change to what visitors see; a write whose statement began before the stored document's is
-- skipped, so two concurrent rebuilds cannot leave the older data in place. A property that is
-- gone has no row to write, and its document went with it (ON DELETE CASCADE).
CREATE FUNCTION public_search_documents_write(property_ids text[]) RETURNS void
  LANGUAGE sql VOLATILE
  AS $$
INSERT INTO "public_search_documents" AS d
  ("propertyId", "title", "city", "address", "bedrooms", "bathrooms", "images", "cityKey", "searchVector", "builtAt")
SELECT p."id", p."title", p."city", p."address", p."bedrooms", p."bathrooms",
  COALESCE((
    SELECT jsonb_agg(jsonb_build_object(
      'id', i."id", 'width', i."width", 'height', i."height", 'displayOrder', i."displayOrder",
      'isMain', i."isMain", 'isStyled', i."isStyled", 'isPublic', i."isPublic", 'styledFromId', i."styledFromId",
      'style', i."style", 'canonicalStyle', i."canonicalStyle", 'roomType', i."roomType", 'reviewStatus', i."reviewStatus"
    ) ORDER BY i."displayOrder", i."createdAt", i."id")
    FROM "property_images" i
    WHERE i."propertyId" = p."id"
      AND ((NOT i."isStyled" AND i."isPublic") OR (i."reviewStatus" = 'APPROVED' AND EXISTS (
        SELECT 1 FROM "property_images" o WHERE o."id" = i."styledFromId" AND NOT o."isStyled" AND o."isPublic")))
  ), '[]'::jsonb),
  public_search_fold(p."city"),
  to_tsvector('simple', public_search_fold(concat_ws(' ', p."title", p."city", p."address", p."description", array_to_string(p."features", ' ')))),
  statement_timestamp()
FROM "properties" p
WHERE p."id" = ANY(property_ids)
ON CONFLICT ("propertyId") DO UPDATE SET
  "title" = EXCLUDED."title", "city" = EXCLUDED."city", "address" = EXCLUDED."address",
  "bedrooms" = EXCLUDED."bedrooms", "bathrooms" = EXCLUDED."bathrooms", "images" = EXCLUDED."images",
  "cityKey" = EXCLUDED."cityKey", "searchVector" = EXCLUDED."searchVector", "builtAt" = EXCLUDED."builtAt"
WHERE d."builtAt" <= EXCLUDED."builtAt"
$$;

-- The listings public before this migration (every property is).
SELECT public_search_documents_write(array_agg("id")) FROM "properties";
