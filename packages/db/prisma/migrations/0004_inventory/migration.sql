-- v1: units of a property (e.g. a building's unit types) and their inventory items.

CREATE TYPE "InventoryStatus" AS ENUM ('AVAILABLE', 'RESERVED', 'SOLD', 'RENTED');

CREATE TABLE "property_units" (
    "id"         TEXT NOT NULL DEFAULT (gen_random_uuid())::text,
    "propertyId" TEXT NOT NULL,
    "name"       TEXT NOT NULL,
    "createdAt"  TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "property_units_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "property_units_propertyId_idx" ON "property_units"("propertyId");

ALTER TABLE "property_units" ADD CONSTRAINT "property_units_propertyId_fkey"
    FOREIGN KEY ("propertyId") REFERENCES "properties"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- priceAdjustment is money: exact decimal, never floating point.
CREATE TABLE "inventory_items" (
    "id"              TEXT NOT NULL DEFAULT (gen_random_uuid())::text,
    "propertyUnitId"  TEXT NOT NULL,
    "unitNumber"      TEXT NOT NULL,
    "floor"           DOUBLE PRECISION,
    "status"          "InventoryStatus" NOT NULL DEFAULT 'AVAILABLE',
    "priceAdjustment" DECIMAL(14,2),
    "notes"           TEXT,
    "createdAt"       TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt"       TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "inventory_items_pkey" PRIMARY KEY ("id")
);

-- A unit number identifies an item within its unit; the index also serves lookups by unit.
CREATE UNIQUE INDEX "inventory_items_unit_number_uidx" ON "inventory_items"("propertyUnitId", "unitNumber");

ALTER TABLE "inventory_items" ADD CONSTRAINT "inventory_items_propertyUnitId_fkey"
    FOREIGN KEY ("propertyUnitId") REFERENCES "property_units"("id") ON DELETE CASCADE ON UPDATE CASCADE;
