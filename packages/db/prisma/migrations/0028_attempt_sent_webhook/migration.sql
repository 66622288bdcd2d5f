-- Recovery of a create whose answer was lost compares the provider's list with what the create call
-- sent, never with values recomputed from current config (the webhook base URL may change while an
-- attempt is CREATING). The input, hashed user id included, is already frozen in "inputFingerprint";
-- this keeps the callback URL sent. Attempts marked CREATING before this column existed keep NULL:
-- recovery then lets no echoed webhook prove a match and probes the callback origin of the current
-- config, as it did before (docs/decisions/staging.md "Recovering a CREATING attempt").
ALTER TABLE "ai_provider_attempts" ADD COLUMN "webhookUrl" TEXT;
