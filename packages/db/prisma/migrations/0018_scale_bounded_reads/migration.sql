-- Every read an agent makes starts from what the agent may see and walks an index, so that its
-- cost stays flat from one agency's data to a hundred times that (docs/decisions/staging.md
-- "Job lists and spend at a customer's size").

-- Job lists, newest first: one property's jobs walk ("propertyId", "createdAt", "id") backwards;
-- every property's jobs (an agency with thousands of properties, or an admin) walk
-- ("type", "createdAt", "id") backwards and keep the rows the caller may see
-- (packages/services/src/staging/get-jobs.ts picks the walk).
-- A list of some statuses only walks ("type", "status", "createdAt", "id"), which also serves
-- every reader of the index it replaces.
DROP INDEX "ai_jobs_propertyId_idx";
CREATE INDEX "ai_jobs_propertyId_createdAt_id_idx" ON "ai_jobs"("propertyId", "createdAt", "id");
CREATE INDEX "ai_jobs_type_createdAt_id_idx" ON "ai_jobs"("type", "createdAt", "id");
DROP INDEX "ai_jobs_type_status_idx";
CREATE INDEX "ai_jobs_type_status_createdAt_id_idx" ON "ai_jobs"("type", "status", "createdAt", "id");

-- Job history reads each page's review events by job.
CREATE INDEX "property_image_review_events_aiJobId_idx" ON "property_image_review_events"("aiJobId");

-- The review queue and the published variants walk one review state newest first, the same two
-- ways as the job lists (one property's images are few, so the merge reads them by property).
CREATE INDEX "property_images_reviewStatus_createdAt_id_idx" ON "property_images"("reviewStatus", "createdAt", "id");

-- property.list, newest first: the owner's properties on an index of their own, an admin's on the
-- whole table's.
DROP INDEX "properties_ownerAgentId_idx";
CREATE INDEX "properties_ownerAgentId_createdAt_id_idx" ON "properties"("ownerAgentId", "createdAt", "id");
CREATE INDEX "properties_createdAt_id_idx" ON "properties"("createdAt", "id");

-- Spend, kept as running totals instead of summed from every attempt at each read. An attempt
-- counts in the month (UTC) it was reserved once it bought, or may have bought, a prediction
-- (the rule of ai_spend_counts below). One row per property and month, and one per owner and
-- month, each kept by a trigger in the same transaction as the attempt's write.
CREATE TABLE "ai_spend_property_months" (
    "propertyId" TEXT NOT NULL,
    "month" TEXT NOT NULL,
    "ownerAgentId" TEXT NOT NULL,
    "estimateMicrousd" BIGINT NOT NULL DEFAULT 0,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "attemptsWithoutEstimate" INTEGER NOT NULL DEFAULT 0,
    CONSTRAINT "ai_spend_property_months_pkey" PRIMARY KEY ("propertyId", "month"),
    CONSTRAINT "ai_spend_property_months_propertyId_fkey" FOREIGN KEY ("propertyId") REFERENCES "properties"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
-- One month's properties by spend, largest first (walked backwards), per owner and for an admin.
CREATE INDEX "ai_spend_property_months_owner_rank_idx"
    ON "ai_spend_property_months"("ownerAgentId", "month", "estimateMicrousd", "propertyId");
CREATE INDEX "ai_spend_property_months_rank_idx"
    ON "ai_spend_property_months"("month", "estimateMicrousd", "propertyId");

CREATE TABLE "ai_spend_owner_months" (
    "ownerAgentId" TEXT NOT NULL,
    "month" TEXT NOT NULL,
    "estimateMicrousd" BIGINT NOT NULL DEFAULT 0,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "attemptsWithoutEstimate" INTEGER NOT NULL DEFAULT 0,
    CONSTRAINT "ai_spend_owner_months_pkey" PRIMARY KEY ("ownerAgentId", "month")
);
CREATE INDEX "ai_spend_owner_months_month_idx" ON "ai_spend_owner_months"("month");

-- Whether an attempt counts as spend: it has a prediction or a recorded estimate, or its create
-- call may have reached the provider (CREATING, or PURCHASE_UNCONFIRMED). A reservation the
-- provider never saw bought nothing.
CREATE FUNCTION "ai_spend_counts"(a "ai_provider_attempts") RETURNS boolean
LANGUAGE sql IMMUTABLE AS $$
    SELECT a."providerPredictionId" IS NOT NULL OR a."costMicrousd" IS NOT NULL
        OR a."status" = 'CREATING' OR a."errorCode" IS NOT DISTINCT FROM 'PURCHASE_UNCONFIRMED'
$$;

CREATE FUNCTION "ai_spend_month_of"(at timestamptz) RETURNS text
LANGUAGE sql IMMUTABLE AS $$ SELECT to_char(at AT TIME ZONE 'UTC', 'YYYY-MM') $$;

-- Adds (sign 1) or removes (sign -1) one attempt's share of its property's month.
CREATE FUNCTION "ai_spend_apply"(a "ai_provider_attempts", sign integer) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
    property_id text;
    owner_id text;
BEGIN
    IF NOT "ai_spend_counts"(a) THEN RETURN; END IF;
    SELECT p."id", p."ownerAgentId" INTO property_id, owner_id
    FROM "ai_jobs" j JOIN "properties" p ON p."id" = j."propertyId"
    WHERE j."id" = a."aiJobId";
    -- A job whose property is gone (or never had one) has no spend row to keep.
    IF property_id IS NULL THEN RETURN; END IF;
    INSERT INTO "ai_spend_property_months" AS s
        ("propertyId", "month", "ownerAgentId", "estimateMicrousd", "attempts", "attemptsWithoutEstimate")
    VALUES (property_id, "ai_spend_month_of"(a."createdAt"), owner_id,
        sign * COALESCE(a."costMicrousd", 0), sign, sign * (a."costMicrousd" IS NULL)::int)
    ON CONFLICT ("propertyId", "month") DO UPDATE SET
        "estimateMicrousd" = s."estimateMicrousd" + EXCLUDED."estimateMicrousd",
        "attempts" = s."attempts" + EXCLUDED."attempts",
        "attemptsWithoutEstimate" = s."attemptsWithoutEstimate" + EXCLUDED."attemptsWithoutEstimate";
END;
$$;

CREATE FUNCTION "ai_provider_attempts_spend"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') THEN PERFORM "ai_spend_apply"(OLD, -1); END IF;
    IF TG_OP IN ('UPDATE', 'INSERT') THEN PERFORM "ai_spend_apply"(NEW, 1); END IF;
    RETURN NULL;
END;
$$;

CREATE TRIGGER "ai_provider_attempts_spend_insert_delete_trg"
    AFTER INSERT OR DELETE ON "ai_provider_attempts"
    FOR EACH ROW EXECUTE FUNCTION "ai_provider_attempts_spend"();

CREATE TRIGGER "ai_provider_attempts_spend_update_trg"
    AFTER UPDATE OF "providerPredictionId", "costMicrousd", "status", "errorCode" ON "ai_provider_attempts"
    FOR EACH ROW WHEN ("ai_spend_counts"(OLD) OR "ai_spend_counts"(NEW))
    EXECUTE FUNCTION "ai_provider_attempts_spend"();

-- A job deleted takes its attempts with it, and by the time those cascade the job row that names
-- their property is gone: the job's share is taken out first.
CREATE FUNCTION "ai_jobs_spend_before_delete"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM "ai_spend_apply"(a, -1) FROM "ai_provider_attempts" a WHERE a."aiJobId" = OLD."id";
    RETURN OLD;
END;
$$;

CREATE TRIGGER "ai_jobs_spend_before_delete_trg"
    BEFORE DELETE ON "ai_jobs"
    FOR EACH ROW EXECUTE FUNCTION "ai_jobs_spend_before_delete"();

-- The owner's month follows every change of a property's month: an attempt's write, a property
-- deleted (its rows cascade) or handed to another owner.
CREATE FUNCTION "ai_spend_property_months_owner"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        UPDATE "ai_spend_owner_months" SET
            "estimateMicrousd" = "estimateMicrousd" - OLD."estimateMicrousd",
            "attempts" = "attempts" - OLD."attempts",
            "attemptsWithoutEstimate" = "attemptsWithoutEstimate" - OLD."attemptsWithoutEstimate"
        WHERE "ownerAgentId" = OLD."ownerAgentId" AND "month" = OLD."month";
    END IF;
    IF TG_OP IN ('UPDATE', 'INSERT') THEN
        INSERT INTO "ai_spend_owner_months" AS o
            ("ownerAgentId", "month", "estimateMicrousd", "attempts", "attemptsWithoutEstimate")
        VALUES (NEW."ownerAgentId", NEW."month", NEW."estimateMicrousd", NEW."attempts", NEW."attemptsWithoutEstimate")
        ON CONFLICT ("ownerAgentId", "month") DO UPDATE SET
            "estimateMicrousd" = o."estimateMicrousd" + EXCLUDED."estimateMicrousd",
            "attempts" = o."attempts" + EXCLUDED."attempts",
            "attemptsWithoutEstimate" = o."attemptsWithoutEstimate" + EXCLUDED."attemptsWithoutEstimate";
    END IF;
    RETURN NULL;
END;
$$;

CREATE TRIGGER "ai_spend_property_months_owner_trg"
    AFTER INSERT OR UPDATE OR DELETE ON "ai_spend_property_months"
    FOR EACH ROW EXECUTE FUNCTION "ai_spend_property_months_owner"();

CREATE FUNCTION "properties_spend_owner"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    UPDATE "ai_spend_property_months" SET "ownerAgentId" = NEW."ownerAgentId" WHERE "propertyId" = NEW."id";
    RETURN NULL;
END;
$$;

CREATE TRIGGER "properties_spend_owner_trg"
    AFTER UPDATE OF "ownerAgentId" ON "properties"
    FOR EACH ROW WHEN (OLD."ownerAgentId" IS DISTINCT FROM NEW."ownerAgentId")
    EXECUTE FUNCTION "properties_spend_owner"();

-- Recomputes both tables from the attempts: the backfill below, and data loaded with triggers off
-- (the scale benchmark's seed).
CREATE FUNCTION "ai_spend_rebuild"() RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM "ai_spend_owner_months";
    ALTER TABLE "ai_spend_property_months" DISABLE TRIGGER "ai_spend_property_months_owner_trg";
    DELETE FROM "ai_spend_property_months";
    INSERT INTO "ai_spend_property_months"
        ("propertyId", "month", "ownerAgentId", "estimateMicrousd", "attempts", "attemptsWithoutEstimate")
    SELECT p."id", "ai_spend_month_of"(a."createdAt"), p."ownerAgentId",
        COALESCE(SUM(a."costMicrousd"), 0), COUNT(*), COUNT(*) FILTER (WHERE a."costMicrousd" IS NULL)
    FROM "ai_provider_attempts" a
        JOIN "ai_jobs" j ON j."id" = a."aiJobId"
        JOIN "properties" p ON p."id" = j."propertyId"
    WHERE "ai_spend_counts"(a)
    GROUP BY p."id", 2;
    ALTER TABLE "ai_spend_property_months" ENABLE TRIGGER "ai_spend_property_months_owner_trg";
    INSERT INTO "ai_spend_owner_months"
        ("ownerAgentId", "month", "estimateMicrousd", "attempts", "attemptsWithoutEstimate")
    SELECT "ownerAgentId", "month", SUM("estimateMicrousd"), SUM("attempts"), SUM("attemptsWithoutEstimate")
    FROM "ai_spend_property_months"
    GROUP BY 1, 2;
END;
$$;

SELECT "ai_spend_rebuild"();
