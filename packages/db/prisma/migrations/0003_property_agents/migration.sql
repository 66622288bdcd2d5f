-- v1: agents assigned to a listing besides its owner (co-listing agents).

CREATE TABLE "property_agents" (
    "propertyId" TEXT NOT NULL,
    "userId"     TEXT NOT NULL,
    "createdAt"  TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "property_agents_pkey" PRIMARY KEY ("propertyId", "userId")
);

-- The primary key serves lookups by property; this one serves "listings assigned to me".
CREATE INDEX "property_agents_userId_idx" ON "property_agents"("userId");

ALTER TABLE "property_agents" ADD CONSTRAINT "property_agents_propertyId_fkey"
    FOREIGN KEY ("propertyId") REFERENCES "properties"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "property_agents" ADD CONSTRAINT "property_agents_userId_fkey"
    FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
