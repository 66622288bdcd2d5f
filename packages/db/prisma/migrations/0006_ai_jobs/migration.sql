-- v1: AI jobs (listing descriptions, then "stage room"), one row per queued job. v1 kept the job's
-- inputs in free-form JSON (payload: imageId, style, roomType as typed by the agent).

CREATE TYPE "AiJobType" AS ENUM ('STAGE_ROOM', 'DESCRIPTION');
CREATE TYPE "AiJobStatus" AS ENUM ('PENDING', 'PROCESSING', 'COMPLETED', 'FAILED');

CREATE TABLE "ai_jobs" (
    "id"                TEXT NOT NULL DEFAULT (gen_random_uuid())::text,
    "type"              "AiJobType" NOT NULL,
    "status"            "AiJobStatus" NOT NULL DEFAULT 'PENDING',
    "errorMessage"      TEXT,
    "propertyId"        TEXT,
    "requestedByUserId" TEXT,
    "payload"           JSONB,
    "result"            JSONB,
    "createdAt"         TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt"         TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt"         TIMESTAMPTZ(3),
    "completedAt"       TIMESTAMPTZ(3),

    CONSTRAINT "ai_jobs_pkey" PRIMARY KEY ("id")
);

-- No foreign keys to properties/users: a job row is billing and audit history and must outlive them.
CREATE INDEX "ai_jobs_type_status_idx" ON "ai_jobs"("type", "status");
CREATE INDEX "ai_jobs_propertyId_idx" ON "ai_jobs"("propertyId");
