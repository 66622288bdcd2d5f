-- Crash recovery of a CREATING attempt matches the provider's echoed prediction input against a
-- fingerprint persisted immediately before the create request (docs/decisions.md "Recovering a
-- CREATING attempt"). SHA-256 hex of the canonical JSON of the input sent; never the input itself,
-- which holds a presigned URL.
ALTER TABLE "ai_provider_attempts" ADD COLUMN "inputFingerprint" TEXT;
