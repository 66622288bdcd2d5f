-- Room staging v2, step 1 of 3: new states, tables and columns only. Nothing here changes or
-- removes existing data, so the backward-compatible worker can be deployed on top of it
-- (SPEC.md 9.5). Data fixes are in 0009, constraints that legacy rows would violate in 0010.

-- ---------------------------------------------------------------------------------------------
-- Job types and states. Values are renamed in place (not recreated) so existing rows keep them.
-- New enum values cannot be used in the transaction that adds them; 0009/0010 use them.
-- ---------------------------------------------------------------------------------------------
ALTER TYPE "AiJobType" RENAME VALUE 'STAGE_ROOM' TO 'ROOM_STAGING';

ALTER TYPE "AiJobStatus" RENAME VALUE 'COMPLETED' TO 'SUCCESS';
ALTER TYPE "AiJobStatus" ADD VALUE 'RETRYING' AFTER 'PROCESSING';
ALTER TYPE "AiJobStatus" ADD VALUE 'CANCEL_REQUESTED' AFTER 'RETRYING';
ALTER TYPE "AiJobStatus" ADD VALUE 'CANCELED' AFTER 'SUCCESS';

CREATE TYPE "RoomType" AS ENUM ('BEDROOM', 'LIVING_ROOM', 'DINING_ROOM', 'KITCHEN', 'BATHROOM', 'OFFICE', 'TV_ROOM');
-- The six canonical styles (docs/decisions.md, "Six canonical styles").
CREATE TYPE "CanonicalStyle" AS ENUM ('MODERN', 'SCANDINAVIAN', 'INDUSTRIAL', 'MID_CENTURY', 'COASTAL', 'FARMHOUSE');
CREATE TYPE "ReviewStatus" AS ENUM ('PENDING_REVIEW', 'APPROVED');
CREATE TYPE "ReviewEventKind" AS ENUM ('APPROVED', 'REJECTED');
CREATE TYPE "AttemptStatus" AS ENUM ('RESERVED', 'CREATING', 'ACTIVE', 'SUCCEEDED', 'FAILED', 'CANCELED', 'DISCARDED');
CREATE TYPE "DeletionReason" AS ENUM (
    'STAGED_IMAGE_DELETED', 'ORIGINAL_IMAGE_DELETED', 'MIGRATED_ORPHAN',
    'MIGRATED_DUPLICATE', 'MIGRATED_DUPLICATE_LEGACY', 'MIGRATED_DUPLICATE_JOB_RESULT'
);
CREATE TYPE "DeletionStatus" AS ENUM ('PENDING', 'PROCESSING', 'DELETED', 'FAILED');

-- ---------------------------------------------------------------------------------------------
-- ai_jobs becomes the durable dispatch outbox: phase (e.g. PROVIDER_DISABLED), structured error
-- code, dedupe key and the timestamps the alerts and cancellation rely on.
-- ---------------------------------------------------------------------------------------------
ALTER TABLE "ai_jobs"
    ADD COLUMN "phase"             TEXT,
    ADD COLUMN "errorCode"         TEXT,
    ADD COLUMN "dedupeKey"         TEXT,
    ADD COLUMN "heartbeatAt"       TIMESTAMPTZ(3),
    ADD COLUMN "cancelRequestedAt" TIMESTAMPTZ(3),
    ADD COLUMN "canceledAt"        TIMESTAMPTZ(3);

-- ---------------------------------------------------------------------------------------------
-- property_images: canonical style next to the display style, review state, provenance of the
-- generated output. All nullable: originals leave them NULL.
-- ---------------------------------------------------------------------------------------------
ALTER TABLE "property_images"
    ADD COLUMN "canonicalStyle"       "CanonicalStyle",
    ADD COLUMN "roomType"             "RoomType",
    ADD COLUMN "reviewStatus"         "ReviewStatus",
    ADD COLUMN "reviewedByUserId"     TEXT,
    ADD COLUMN "reviewedAt"           TIMESTAMPTZ(3),
    ADD COLUMN "providerInputs"       JSONB,
    ADD COLUMN "providerPredictionId" TEXT,
    ADD COLUMN "outputBytes"          INTEGER,
    ADD COLUMN "outputWidth"          INTEGER,
    ADD COLUMN "outputHeight"         INTEGER,
    ADD COLUMN "outputFormat"         TEXT,
    ADD COLUMN "outputChecksum"       TEXT;

-- A reviewer leaving keeps the approval; only the link to the person goes.
ALTER TABLE "property_images" ADD CONSTRAINT "property_images_reviewedByUserId_fkey"
    FOREIGN KEY ("reviewedByUserId") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- ---------------------------------------------------------------------------------------------
-- One row per staging job: the audited inputs (submitted and legacy style stay readable) and the
-- provider inputs frozen at submission, so a retry or a worker with other settings renders the
-- same request.
-- ---------------------------------------------------------------------------------------------
CREATE TABLE "ai_room_staging_jobs" (
    "aiJobId"           TEXT NOT NULL,
    "originalImageId"   TEXT,
    "resultImageId"     TEXT,
    "propertyId"        TEXT NOT NULL,
    "requestedByUserId" TEXT,
    "canonicalRoomType" "RoomType" NOT NULL,
    "canonicalStyle"    "CanonicalStyle" NOT NULL,
    "submittedStyle"    TEXT NOT NULL,
    "legacyStyle"       TEXT,
    "legacyMetadata"    JSONB,
    "providerModel"     TEXT NOT NULL,
    "promptVersion"     TEXT NOT NULL,
    "prompt"            TEXT NOT NULL,
    "quality"           TEXT NOT NULL,
    "aspectRatio"       TEXT NOT NULL,
    "outputFormat"      TEXT NOT NULL,
    "outputCompression" INTEGER NOT NULL,
    "createdAt"         TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ai_room_staging_jobs_pkey" PRIMARY KEY ("aiJobId")
);

CREATE UNIQUE INDEX "ai_room_staging_jobs_resultImageId_key" ON "ai_room_staging_jobs"("resultImageId");
-- Serves the cancel-on-delete trigger (0010), which looks jobs up by their original.
CREATE INDEX "ai_room_staging_jobs_originalImageId_idx" ON "ai_room_staging_jobs"("originalImageId");

ALTER TABLE "ai_room_staging_jobs" ADD CONSTRAINT "ai_room_staging_jobs_aiJobId_fkey"
    FOREIGN KEY ("aiJobId") REFERENCES "ai_jobs"("id") ON DELETE CASCADE ON UPDATE CASCADE;
-- SET NULL, not CASCADE: the job's audit trail outlives the images (decisions.md).
ALTER TABLE "ai_room_staging_jobs" ADD CONSTRAINT "ai_room_staging_jobs_originalImageId_fkey"
    FOREIGN KEY ("originalImageId") REFERENCES "property_images"("id") ON DELETE SET NULL ON UPDATE CASCADE;
ALTER TABLE "ai_room_staging_jobs" ADD CONSTRAINT "ai_room_staging_jobs_resultImageId_fkey"
    FOREIGN KEY ("resultImageId") REFERENCES "property_images"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- ---------------------------------------------------------------------------------------------
-- Paid provider attempts (at most two per job, check constraint in 0010). The row is reserved
-- before the purchase so a crash can never buy the same attempt twice.
-- ---------------------------------------------------------------------------------------------
CREATE TABLE "ai_provider_attempts" (
    "id"                   TEXT NOT NULL DEFAULT (gen_random_uuid())::text,
    "aiJobId"              TEXT NOT NULL,
    "attemptNumber"        INTEGER NOT NULL,
    "providerPredictionId" TEXT,
    "status"               "AttemptStatus" NOT NULL DEFAULT 'RESERVED',
    "providerStatus"       TEXT,
    "errorCode"            TEXT,
    "errorMessage"         TEXT,
    "outputObjectKey"      TEXT,
    "downloadBytes"        INTEGER,
    "outputWidth"          INTEGER,
    "outputHeight"         INTEGER,
    "outputFormat"         TEXT,
    "costMicrousd"         INTEGER,
    "costKind"             TEXT,
    "pricingVersion"       TEXT,
    "createdAt"            TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "creatingAt"           TIMESTAMPTZ(3),
    "predictionCreatedAt"  TIMESTAMPTZ(3),
    "providerCompletedAt"  TIMESTAMPTZ(3),
    "endedAt"              TIMESTAMPTZ(3),

    CONSTRAINT "ai_provider_attempts_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "ai_provider_attempts_providerPredictionId_key" ON "ai_provider_attempts"("providerPredictionId");
CREATE UNIQUE INDEX "ai_provider_attempts_job_attempt_uidx" ON "ai_provider_attempts"("aiJobId", "attemptNumber");

ALTER TABLE "ai_provider_attempts" ADD CONSTRAINT "ai_provider_attempts_aiJobId_fkey"
    FOREIGN KEY ("aiJobId") REFERENCES "ai_jobs"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Verified provider callbacks; webhookId is unique because providers redeliver with the same id.
CREATE TABLE "ai_provider_webhook_receipts" (
    "id"                   TEXT NOT NULL DEFAULT (gen_random_uuid())::text,
    "webhookId"            TEXT NOT NULL,
    "providerAttemptId"    TEXT NOT NULL,
    "providerPredictionId" TEXT NOT NULL,
    "providerStatus"       TEXT NOT NULL,
    "webhookTimestamp"     TIMESTAMPTZ(3) NOT NULL,
    "receivedAt"           TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ai_provider_webhook_receipts_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "ai_provider_webhook_receipts_webhookId_key" ON "ai_provider_webhook_receipts"("webhookId");
CREATE INDEX "ai_provider_webhook_receipts_providerAttemptId_idx" ON "ai_provider_webhook_receipts"("providerAttemptId");

ALTER TABLE "ai_provider_webhook_receipts" ADD CONSTRAINT "ai_provider_webhook_receipts_providerAttemptId_fkey"
    FOREIGN KEY ("providerAttemptId") REFERENCES "ai_provider_attempts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- ---------------------------------------------------------------------------------------------
-- Review history. imageId is a snapshot without a foreign key: a REJECTED event must survive
-- the deletion of the image row it describes.
-- ---------------------------------------------------------------------------------------------
CREATE TABLE "property_image_review_events" (
    "id"          TEXT NOT NULL DEFAULT (gen_random_uuid())::text,
    "imageId"     TEXT NOT NULL,
    "aiJobId"     TEXT,
    "actorUserId" TEXT,
    "kind"        "ReviewEventKind" NOT NULL,
    "reason"      TEXT,
    "createdAt"   TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "property_image_review_events_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "property_image_review_events_imageId_idx" ON "property_image_review_events"("imageId");

-- ---------------------------------------------------------------------------------------------
-- Objects to remove from storage, written in the same transaction as the row change that
-- orphaned them and drained by the worker loop (availableAt/lockedAt drive retries and claims).
-- ---------------------------------------------------------------------------------------------
CREATE TABLE "storage_deletion_outbox" (
    "id"          TEXT NOT NULL DEFAULT (gen_random_uuid())::text,
    "objectKey"   TEXT NOT NULL,
    "reason"      "DeletionReason" NOT NULL,
    "status"      "DeletionStatus" NOT NULL DEFAULT 'PENDING',
    "attempts"    INTEGER NOT NULL DEFAULT 0,
    "lastError"   TEXT,
    "availableAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lockedAt"    TIMESTAMPTZ(3),
    "createdAt"   TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "processedAt" TIMESTAMPTZ(3),

    CONSTRAINT "storage_deletion_outbox_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "storage_deletion_outbox_status_availableAt_idx" ON "storage_deletion_outbox"("status", "availableAt");
