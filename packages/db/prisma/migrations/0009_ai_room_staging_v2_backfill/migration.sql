-- Room staging v2, step 2 of 3: bring v1 rows into the v2 model so that every constraint of 0010
-- holds. Order matters: covers are fixed while staged covers still exist; rows to remove are
-- chosen rule by rule (a row claimed by an earlier rule is not considered again); only the
-- survivors are approved. v1 columns (style, payload) are never rewritten, so history stays
-- readable (SPEC.md 9.4).

-- ---------------------------------------------------------------------------------------------
-- 1. Canonical style of each staged image from its free-text v1 style.
--    KEEP IN SYNC with the runtime alias table in packages/domain/src/styles.ts.
--    Matching is case-insensitive and ignores surrounding whitespace, as normalizeStyleName()
--    there does (trim + lower case). 'no-furniture' and unknown names get no canonical style:
--    they stay display-only and are never generation requests.
-- ---------------------------------------------------------------------------------------------
UPDATE "property_images" AS image
SET "canonicalStyle" = alias.canonical::"CanonicalStyle"
FROM (VALUES
    ('modern', 'MODERN'), ('contemporary', 'MODERN'), ('luxury', 'MODERN'),
    ('scandinavian', 'SCANDINAVIAN'), ('scandi', 'SCANDINAVIAN'), ('nordic', 'SCANDINAVIAN'), ('minimalist', 'SCANDINAVIAN'),
    ('industrial', 'INDUSTRIAL'), ('loft', 'INDUSTRIAL'), ('urban', 'INDUSTRIAL'),
    ('mid-century', 'MID_CENTURY'), ('midcentury', 'MID_CENTURY'), ('mid_century', 'MID_CENTURY'), ('retro', 'MID_CENTURY'),
    ('coastal', 'COASTAL'), ('beach', 'COASTAL'), ('hamptons', 'COASTAL'),
    ('farmhouse', 'FARMHOUSE'), ('rustic', 'FARMHOUSE'), ('country', 'FARMHOUSE')
) AS alias (name, canonical)
WHERE image."isStyled"
  AND lower(regexp_replace(image."style", '^\s+|\s+$', '', 'g')) = alias.name;

-- ---------------------------------------------------------------------------------------------
-- 2. Covers. A staged image can never be the cover (SPEC.md 1.5).
-- ---------------------------------------------------------------------------------------------
-- 2a. Where the cover was a staged image, the original it was generated from (the same room,
--     unstaged) becomes the cover, unless the property already has an original cover; so a
--     listing that had a cover keeps one.
WITH staged_cover AS (
    SELECT DISTINCT ON (staged."propertyId") staged."propertyId", original.id AS "originalId"
    FROM "property_images" AS staged
    JOIN "property_images" AS original
      ON original.id = staged."styledFromId"
     AND original."propertyId" = staged."propertyId"
     AND NOT original."isStyled"
    WHERE staged."isStyled" AND staged."isMain"
    ORDER BY staged."propertyId", staged."createdAt" DESC, staged.id DESC
)
UPDATE "property_images" AS image
SET "isMain" = true, "updatedAt" = now()
FROM staged_cover
WHERE image.id = staged_cover."originalId"
  AND NOT EXISTS (
      SELECT 1 FROM "property_images" AS cover
      WHERE cover."propertyId" = staged_cover."propertyId" AND cover."isMain" AND NOT cover."isStyled"
  );

-- 2b. Clear every staged cover flag.
UPDATE "property_images" SET "isMain" = false, "updatedAt" = now()
WHERE "isStyled" AND "isMain";

-- 2c. v1 did not enforce a single cover; keep the first in display order.
UPDATE "property_images" SET "isMain" = false, "updatedAt" = now()
WHERE id IN (
    SELECT id FROM (
        SELECT id, row_number() OVER (
            PARTITION BY "propertyId" ORDER BY "displayOrder", "createdAt", id
        ) AS position
        FROM "property_images" WHERE "isMain"
    ) AS covers
    WHERE position > 1
);

-- ---------------------------------------------------------------------------------------------
-- 3. Staged rows to remove, with the reason their storage object is deleted. Among duplicates
--    the newest approved row is kept, else the most recent (approval only matters for rows a v2
--    worker may have written between the 0008 and 0009 deploys).
-- ---------------------------------------------------------------------------------------------
CREATE TEMPORARY TABLE "migrated_image_removals" (
    "imageId"   TEXT PRIMARY KEY,
    "objectKey" TEXT NOT NULL,
    "reason"    "DeletionReason" NOT NULL
) ON COMMIT DROP;

-- 3a. Orphans: no original (styledFromId NULL), a dangling reference, or a "staged image of a
--     staged image", which would dangle once its parent is removed and break 0010's foreign key.
INSERT INTO "migrated_image_removals"
SELECT staged.id, staged."objectKey", 'MIGRATED_ORPHAN'
FROM "property_images" AS staged
WHERE staged."isStyled"
  AND NOT EXISTS (
      SELECT 1 FROM "property_images" AS original
      WHERE original.id = staged."styledFromId" AND NOT original."isStyled"
  );

-- 3b. One job produced one result; a second claim on the same aiJobId is a v1 retry artefact.
INSERT INTO "migrated_image_removals"
SELECT id, "objectKey", 'MIGRATED_DUPLICATE_JOB_RESULT'
FROM (
    SELECT id, "objectKey", row_number() OVER (
        PARTITION BY "aiJobId"
        ORDER BY "reviewStatus" IS NOT DISTINCT FROM 'APPROVED' DESC, "createdAt" DESC, id DESC
    ) AS position
    FROM "property_images"
    WHERE "isStyled" AND "aiJobId" IS NOT NULL
      AND id NOT IN (SELECT "imageId" FROM "migrated_image_removals")
) AS ranked
WHERE position > 1;

-- 3c. One live variant per original and canonical style (e.g. 'Modern' and 'contemporary').
INSERT INTO "migrated_image_removals"
SELECT id, "objectKey", 'MIGRATED_DUPLICATE'
FROM (
    SELECT id, "objectKey", row_number() OVER (
        PARTITION BY "styledFromId", "canonicalStyle"
        ORDER BY "reviewStatus" IS NOT DISTINCT FROM 'APPROVED' DESC, "createdAt" DESC, id DESC
    ) AS position
    FROM "property_images"
    WHERE "isStyled" AND "canonicalStyle" IS NOT NULL
      AND id NOT IN (SELECT "imageId" FROM "migrated_image_removals")
) AS ranked
WHERE position > 1;

-- 3d. One live display-only variant per original and legacy style, compared as the aliases are
--     (case and surrounding whitespace ignored, so 'no-furniture' = 'No-Furniture ').
--     A NULL style is not a style: such rows are never duplicates of each other.
INSERT INTO "migrated_image_removals"
SELECT id, "objectKey", 'MIGRATED_DUPLICATE_LEGACY'
FROM (
    SELECT id, "objectKey", row_number() OVER (
        PARTITION BY "styledFromId", lower(regexp_replace("style", '^\s+|\s+$', '', 'g'))
        ORDER BY "reviewStatus" IS NOT DISTINCT FROM 'APPROVED' DESC, "createdAt" DESC, id DESC
    ) AS position
    FROM "property_images"
    WHERE "isStyled" AND "canonicalStyle" IS NULL AND "style" IS NOT NULL
      AND id NOT IN (SELECT "imageId" FROM "migrated_image_removals")
) AS ranked
WHERE position > 1;

-- ---------------------------------------------------------------------------------------------
-- 4. Schedule the objects, then remove the rows. An object still referenced by a surviving row
--    (v1 sometimes inserted the same upload twice) is not scheduled: deleting it would break the
--    survivor. One outbox row per object.
-- ---------------------------------------------------------------------------------------------
INSERT INTO "storage_deletion_outbox" ("objectKey", "reason")
SELECT DISTINCT ON (removal."objectKey") removal."objectKey", removal."reason"
FROM "migrated_image_removals" AS removal
WHERE NOT EXISTS (
    SELECT 1 FROM "property_images" AS survivor
    WHERE survivor."objectKey" = removal."objectKey"
      AND survivor.id NOT IN (SELECT "imageId" FROM "migrated_image_removals")
)
ORDER BY removal."objectKey", removal."reason";

DELETE FROM "property_images"
WHERE id IN (SELECT "imageId" FROM "migrated_image_removals");

-- ---------------------------------------------------------------------------------------------
-- 5. v1 published staged images without review; they stay public as APPROVED, with exactly one
--    APPROVED event each. No person approved them, so reviewer and actor are NULL.
-- ---------------------------------------------------------------------------------------------
WITH approved AS (
    UPDATE "property_images"
    SET "reviewStatus" = 'APPROVED', "reviewedAt" = now(), "updatedAt" = now()
    WHERE "isStyled" AND "reviewStatus" IS NULL
    RETURNING id, "aiJobId"
)
INSERT INTO "property_image_review_events" ("imageId", "aiJobId", "actorUserId", "kind", "createdAt")
SELECT id, "aiJobId", NULL, 'APPROVED', now()
FROM approved;
