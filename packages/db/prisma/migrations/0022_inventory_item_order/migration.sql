-- Inventory read in index order (docs/decisions/inventory.md "Inventory pages walk an index").
--
-- Items are listed by "unitNumber" in code-point order (COLLATE "C", the same on every database
-- locale), then id. The unique index "inventory_items_unit_number_uidx" uses the database's
-- default collation, so it cannot give that order: at half a million items every read sorted
-- them on disk. This index gives it, so a page of listItems is one range scan from its cursor.
-- The unique index stays: it is what refuses a duplicate unitNumber in a unit (and the CONFLICT
-- names it).
CREATE INDEX "inventory_items_unit_code_point_order_idx"
  ON "inventory_items" ("propertyUnitId", "unitNumber" COLLATE "C", "id");

-- listUnits walks a property's units by creation time then id; the index on "propertyId" alone
-- would sort them on every page. This one replaces it (same leading column).
CREATE INDEX "property_units_propertyId_createdAt_id_idx"
  ON "property_units" ("propertyId", "createdAt", "id");
DROP INDEX "property_units_propertyId_idx";
