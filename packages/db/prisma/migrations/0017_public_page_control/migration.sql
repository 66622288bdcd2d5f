-- The agent decides which photos the public page shows (docs/decisions.md "The public page under
-- the agent's control").
--
-- "isPublic": whether anonymous surfaces (listing page, public API, search document, public image
-- routes) may show an original. Rows that exist now were public the moment they were uploaded and
-- stay so: hiding every photo of a live listing is not a migration's call. A staged variant is
-- shown beside its original and only while that original is public, so the column is not read
-- on staged rows.
ALTER TABLE "property_images" ADD COLUMN "isPublic" BOOLEAN NOT NULL DEFAULT true;

-- "newImagesPublic": the value "isPublic" takes for an original uploaded to the property. False
-- for every property, existing ones included: from now on nothing reaches the public page before
-- its agent said so.
ALTER TABLE "properties" ADD COLUMN "newImagesPublic" BOOLEAN NOT NULL DEFAULT false;
