-- The jobs of one submission (one ai.submitStaging call) share an id, so an agent sees a batch
-- together and can cancel the rest of it in one action. Older jobs have none.
ALTER TABLE "ai_jobs" ADD COLUMN "submissionId" TEXT;
CREATE INDEX "ai_jobs_submissionId_idx" ON "ai_jobs" ("submissionId");
