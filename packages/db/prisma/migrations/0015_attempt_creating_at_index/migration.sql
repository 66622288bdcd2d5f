-- The daily purchase cap counts the attempts whose create call falls in the current UTC day, under
-- a lock every paid start takes, and the paid-start limiter rebuilds its log from the last minute's:
-- both read a range of "creatingAt", which a table of every attempt ever made must not scan.
CREATE INDEX "ai_provider_attempts_creatingAt_idx" ON "ai_provider_attempts"("creatingAt");
