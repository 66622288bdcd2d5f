-- v1: listings. The owner is the agent who created the listing; deleting a user who still owns
-- listings is refused (RESTRICT) so listings are handed over explicitly, never lost.

CREATE TABLE "properties" (
    "id"           TEXT NOT NULL DEFAULT (gen_random_uuid())::text,
    "ownerAgentId" TEXT NOT NULL,
    "title"        TEXT NOT NULL,
    "address"      TEXT NOT NULL,
    "city"         TEXT NOT NULL,
    "description"  TEXT,
    "bedrooms"     INTEGER NOT NULL DEFAULT 0,
    "bathrooms"    INTEGER NOT NULL DEFAULT 0,
    "features"     TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[],
    "createdAt"    TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt"    TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "properties_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "properties_ownerAgentId_idx" ON "properties"("ownerAgentId");

ALTER TABLE "properties" ADD CONSTRAINT "properties_ownerAgentId_fkey"
    FOREIGN KEY ("ownerAgentId") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
