-- The unit-name key of 0021 lowered letters by the database's own locale: on a server initialized
-- with the plain C locale, lower() changes ASCII letters only, so "Bloque Ñ" and "bloque ñ", or
-- "ÉTAGE" and "étage", stood side by side as two units. The key now lowers by ICU's root locale
-- (the "und-x-icu" collation every ICU-enabled server has), the same on every server whatever it
-- was initialized with (docs/decisions/inventory.md "Labels: normalized, nothing hidden").
--
-- Units that share the new key (only possible where the old one told them apart) are told apart
-- as 0021 did it: the oldest keeps its name, each other one gets its id appended.
UPDATE "property_units" u
SET "name" = u."name" || ' (' || u."id" || ')'
FROM (
  SELECT "id", row_number() OVER (
    PARTITION BY "propertyId", lower(normalize("name", NFKC) COLLATE "und-x-icu") ORDER BY "createdAt", "id"
  ) AS "rank"
  FROM "property_units"
) ranked
WHERE ranked."id" = u."id" AND ranked."rank" > 1;

DROP INDEX "property_units_name_uidx";
CREATE UNIQUE INDEX "property_units_name_uidx" ON "property_units" ("propertyId", lower(normalize("name", NFKC) COLLATE "und-x-icu"));
