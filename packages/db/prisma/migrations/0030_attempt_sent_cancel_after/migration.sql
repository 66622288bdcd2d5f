-- The Cancel-After the latest create call sent, so recovery waits out the deadline the provider was
-- given rather than the one current config would give (PROVIDER_CANCEL_AFTER_SECONDS may be lowered
-- while an attempt is CREATING, and a shorter wait could call the purchase absent while it still
-- runs). Attempts marked CREATING before this column existed keep NULL and use current config.
ALTER TABLE "ai_provider_attempts" ADD COLUMN "cancelAfterSeconds" INTEGER;
