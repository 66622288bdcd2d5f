-- A unit's name is unique in its property without regard to letter case or character width
-- (docs/decisions/inventory.md "Units of a property"): "Tower B", "tower b", "Tower\u00a0B" and the
-- fullwidth "Ｔｏｗｅｒ Ｂ" are one name to an agent reading the unit list, the CSV export's unit
-- column or the import's unit picker. Names are stored NFKC-normalized from now on; the index
-- compares the same key for rows stored before, so no two can ever read alike again.
--
-- Units that already share a key keep the oldest one's name; each other one gets its id appended,
-- which is unique, so the index below can be built whatever the table holds. An agent renames
-- them afterwards (the name rule allows 100 characters; a renamed legacy name may be longer).
UPDATE "property_units" u
SET "name" = u."name" || ' (' || u."id" || ')'
FROM (
  SELECT "id", row_number() OVER (
    PARTITION BY "propertyId", lower(normalize("name", NFKC)) ORDER BY "createdAt", "id"
  ) AS "rank"
  FROM "property_units"
) ranked
WHERE ranked."id" = u."id" AND ranked."rank" > 1;

CREATE UNIQUE INDEX "property_units_name_uidx" ON "property_units" ("propertyId", lower(normalize("name", NFKC)));
