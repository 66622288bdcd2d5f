-- An agent's photos waiting for a paid start slot, for the navigation badge. Partial: only jobs
-- waiting now are in it, so it stays as small as the line however long the history grows. The
-- predicate is written out in the query that uses it (start-line-summary.ts) as literals, which
-- a parameterized plan could not match.
CREATE INDEX "ai_jobs_waiting_for_start_idx" ON "ai_jobs" ("requestedByUserId")
  WHERE "phase" = 'WAITING_FOR_START_SLOT' AND "status" IN ('PENDING', 'PROCESSING', 'RETRYING');
