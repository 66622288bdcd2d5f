-- v1: photos of a listing. objectKey is the exact key in object storage. v1 enforced nothing
-- about the cover (isMain): the dashboard simply cleared the previous cover first.

CREATE TABLE "property_images" (
    "id"           TEXT NOT NULL DEFAULT (gen_random_uuid())::text,
    "propertyId"   TEXT NOT NULL,
    "objectKey"    TEXT NOT NULL,
    "contentType"  TEXT NOT NULL,
    "width"        INTEGER NOT NULL,
    "height"       INTEGER NOT NULL,
    "bytes"        INTEGER NOT NULL,
    "displayOrder" INTEGER NOT NULL DEFAULT 0,
    "isMain"       BOOLEAN NOT NULL DEFAULT false,
    "createdAt"    TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt"    TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "property_images_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "property_images_propertyId_idx" ON "property_images"("propertyId");

ALTER TABLE "property_images" ADD CONSTRAINT "property_images_propertyId_fkey"
    FOREIGN KEY ("propertyId") REFERENCES "properties"("id") ON DELETE CASCADE ON UPDATE CASCADE;
