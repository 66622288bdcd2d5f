-- Room staging v2, step 3 of 3: the rules the database enforces from now on. 0009 made the v1
-- rows satisfy all of them, so creating them cannot fail on migrated data.

-- ---------------------------------------------------------------------------------------------
-- Cascading relations: a staged variant cannot outlive its original.
-- ---------------------------------------------------------------------------------------------
ALTER TABLE "property_images" ADD CONSTRAINT "property_images_styledFromId_fkey"
    FOREIGN KEY ("styledFromId") REFERENCES "property_images"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- ---------------------------------------------------------------------------------------------
-- Uniqueness. Partial indexes cannot be expressed in schema.prisma; the application relies on
-- these names when it maps a unique violation to a disposition (EXISTING, style_exists).
-- ---------------------------------------------------------------------------------------------
-- One result image per job.
DROP INDEX "property_images_aiJobId_idx";
CREATE UNIQUE INDEX "property_images_aiJobId_uidx" ON "property_images"("aiJobId");

-- At most one nonterminal staging job per dedupe key; terminal jobs keep their key as history.
CREATE UNIQUE INDEX "ai_jobs_active_staging_dedupe_uidx" ON "ai_jobs"("dedupeKey")
    WHERE "type" = 'ROOM_STAGING' AND "status" IN ('PENDING', 'PROCESSING', 'RETRYING', 'CANCEL_REQUESTED');

-- One live (pending review or approved) variant per original and canonical style; rejection
-- deletes the row, which frees the style for a new generation.
CREATE UNIQUE INDEX "property_images_live_staged_variant_uidx" ON "property_images"("styledFromId", "canonicalStyle")
    WHERE "isStyled" AND "canonicalStyle" IS NOT NULL;

-- The same for migrated display-only variants (no-furniture, unknown v1 names).
CREATE UNIQUE INDEX "property_images_live_legacy_staged_variant_uidx" ON "property_images"("styledFromId", "style")
    WHERE "isStyled" AND "canonicalStyle" IS NULL;

-- One cover per property.
CREATE UNIQUE INDEX "property_images_one_main_per_property_uidx" ON "property_images"("propertyId")
    WHERE "isMain";

-- Exactly one APPROVED event per approved variant, even under concurrent approvals.
CREATE UNIQUE INDEX "property_image_review_events_one_approved_uidx" ON "property_image_review_events"("imageId")
    WHERE "kind" = 'APPROVED';

-- ---------------------------------------------------------------------------------------------
-- Checks (names are part of the contract, SPEC.md 7).
-- ---------------------------------------------------------------------------------------------
ALTER TABLE "property_images" ADD CONSTRAINT "property_images_staged_cannot_be_main_check"
    CHECK (NOT ("isStyled" AND "isMain"));

-- Staged images always carry a review status, originals never do.
ALTER TABLE "property_images" ADD CONSTRAINT "property_images_review_status_check"
    CHECK ("isStyled" = ("reviewStatus" IS NOT NULL));

-- A logical job buys at most two provider attempts.
ALTER TABLE "ai_provider_attempts" ADD CONSTRAINT "ai_provider_attempts_attemptNumber_check"
    CHECK ("attemptNumber" IN (1, 2));

-- ---------------------------------------------------------------------------------------------
-- Triggers. They live in the database so no deletion path (a use case, a cascade from a deleted
-- property or original, a manual fix) can forget the storage object or a running paid job.
-- ---------------------------------------------------------------------------------------------

-- Before an original goes, its unfinished staging jobs stop: a job still waiting is canceled
-- outright; one that may hold a provider prediction asks the worker to cancel it at the
-- provider (CANCEL_REQUESTED). Runs before the foreign key sets originalImageId to NULL, which
-- is why it can still find the jobs.
CREATE FUNCTION "property_images_cancel_staging_jobs"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF NOT OLD."isStyled" THEN
        UPDATE "ai_jobs" AS job
        SET "status" = CASE WHEN job."status" = 'PENDING' THEN 'CANCELED' ELSE 'CANCEL_REQUESTED' END::"AiJobStatus",
            "cancelRequestedAt" = now(),
            "canceledAt" = CASE WHEN job."status" = 'PENDING' THEN now() ELSE job."canceledAt" END,
            "updatedAt" = now()
        FROM "ai_room_staging_jobs" AS staging
        WHERE staging."aiJobId" = job.id
          AND staging."originalImageId" = OLD.id
          AND job."type" = 'ROOM_STAGING'
          AND job."status" IN ('PENDING', 'PROCESSING', 'RETRYING');
    END IF;
    RETURN OLD;
END;
$$;

CREATE TRIGGER "property_images_cancel_staging_jobs_trg"
    BEFORE DELETE ON "property_images"
    FOR EACH ROW EXECUTE FUNCTION "property_images_cancel_staging_jobs"();

-- Every deleted image row, including staged variants removed by the cascade above, schedules
-- its storage object in the same transaction.
CREATE FUNCTION "property_images_enqueue_storage_deletion"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO "storage_deletion_outbox" ("objectKey", "reason")
    VALUES (
        OLD."objectKey",
        CASE WHEN OLD."isStyled" THEN 'STAGED_IMAGE_DELETED' ELSE 'ORIGINAL_IMAGE_DELETED' END::"DeletionReason"
    );
    RETURN NULL;
END;
$$;

CREATE TRIGGER "property_images_storage_deletion_trg"
    AFTER DELETE ON "property_images"
    FOR EACH ROW EXECUTE FUNCTION "property_images_enqueue_storage_deletion"();
