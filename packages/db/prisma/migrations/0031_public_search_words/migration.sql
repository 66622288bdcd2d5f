-- A common word's listings in title order (docs/decisions/public-pages.md "Public search on
-- PostgreSQL full-text search"). The GIN index answers which listings hold a word, but hands over
-- all of them before a page of 20 can be cut: 20,000 for a word a fifth of 100k listings hold.
-- One row per word of each search document, kept in B-trees ordered by title, lets a search read
-- a page and a capped count from the front of one word's list, at the same cost at any size.
--
-- "word" is a lexeme of "searchVector" exactly (tsvector_to_array), so the list holds the same
-- words the GIN index does. It sorts in byte order (COLLATE "C") so that every word beginning with
-- a prefix sits in one range, as tsquery's prefix match compares bytes. "title" and "cityKey" are
-- copied from the document so a page and the city filter are read from the index alone.
CREATE TABLE "public_search_words" (
  "word"       TEXT COLLATE "C" NOT NULL,
  "title"      TEXT NOT NULL,
  "propertyId" TEXT NOT NULL,
  "cityKey"    TEXT NOT NULL,
  CONSTRAINT "public_search_words_pkey" PRIMARY KEY ("word", "title", "propertyId"),
  CONSTRAINT "public_search_words_propertyId_fkey" FOREIGN KEY ("propertyId")
    REFERENCES "public_search_documents"("propertyId") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "public_search_words_cityKey_word_title_propertyId_idx"
  ON "public_search_words" ("cityKey", "word", "title", "propertyId");
CREATE INDEX "public_search_words_propertyId_idx" ON "public_search_words" ("propertyId");

-- Derived in the same transaction as the document, so the two can never disagree; a rewrite that
-- changes neither the words, the title nor the city (an image approved) leaves the rows alone.
CREATE FUNCTION public_search_words_sync() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    IF NEW."searchVector" = OLD."searchVector" AND NEW."title" = OLD."title" AND NEW."cityKey" = OLD."cityKey" THEN
      RETURN NULL;
    END IF;
    DELETE FROM "public_search_words" WHERE "propertyId" = OLD."propertyId";
  END IF;
  INSERT INTO "public_search_words" ("word", "title", "propertyId", "cityKey")
  SELECT w, NEW."title", NEW."propertyId", NEW."cityKey" FROM unnest(tsvector_to_array(NEW."searchVector")) w;
  RETURN NULL;
END
$$;

CREATE TRIGGER "public_search_words_sync"
  AFTER INSERT OR UPDATE ON "public_search_documents"
  FOR EACH ROW EXECUTE FUNCTION public_search_words_sync();

INSERT INTO "public_search_words" ("word", "title", "propertyId", "cityKey")
SELECT w, d."title", d."propertyId", d."cityKey" FROM "public_search_documents" d, unnest(tsvector_to_array(d."searchVector")) w;
