import type { Db } from '@staging/db/client';
import { isTerminalJobStatus } from '@staging/domain/staging-states';
import type { JobStatus } from '@staging/domain/staging-states';

/** A verified callback: the signed body's prediction plus the signed headers. */
export interface VerifiedCallback {
  providerAttemptId: string;
  webhookId: string;
  webhookTimestamp: Date;
  predictionId: string;
  predictionStatus: string;
}

/**
 * - `unknown-attempt`: no such attempt (404);
 * - `matched`: the body's prediction is the attempt's (or was just filled in);
 * - `mismatch`: the attempt holds another prediction, or none while it is not CREATING (409).
 * `duplicate` says the webhook-id had been received before (a redelivery: nothing was written).
 */
export type CallbackOutcome =
  | { kind: 'unknown-attempt' }
  | { kind: 'matched'; aiJobId: string; jobOpen: boolean; duplicate: boolean; filledPredictionId: boolean }
  | { kind: 'mismatch'; aiJobId: string; duplicate: boolean; persistedPredictionId: string | null };

interface RecordedRow {
  aiJobId: string;
  providerPredictionId: string | null;
  jobStatus: JobStatus;
  inserted: number;
  filled: number;
}

/**
 * Records a verified provider callback (ARCHITECTURE.md: verify, record, wake, answer) in one SQL
 * statement, which is atomic and one round trip (the receiver must answer within milliseconds):
 *
 * 1. the attempt must exist (else nothing is written and no row comes back);
 * 2. the receipt is inserted, keyed by webhook-id, so a redelivery inserts nothing;
 * 3. a CREATING attempt without a prediction id is the "create response lost" case (the worker
 *    crashed or timed out after the provider accepted the prediction): the body's id is filled
 *    in, conditionally, so it never overwrites an id the worker persisted meanwhile (SPEC.md 3.1:
 *    a persisted prediction id never changes), and never takes an id another attempt holds
 *    (that cannot be this attempt's prediction, and would break the unique index).
 *
 * The api never changes job or attempt status: the woken worker reads the provider's state.
 */
export async function recordProviderCallback(db: Db, callback: VerifiedCallback): Promise<CallbackOutcome> {
  const rows = await db.$queryRaw<RecordedRow[]>`
    WITH attempt AS (
      SELECT a."id", a."aiJobId", a."providerPredictionId", a."status", j."status"::text AS "jobStatus"
      FROM "ai_provider_attempts" a JOIN "ai_jobs" j ON j."id" = a."aiJobId"
      WHERE a."id" = ${callback.providerAttemptId}
    ), receipt AS (
      INSERT INTO "ai_provider_webhook_receipts"
        ("webhookId", "providerAttemptId", "providerPredictionId", "providerStatus", "webhookTimestamp")
      SELECT ${callback.webhookId}, attempt."id", ${callback.predictionId}, ${callback.predictionStatus}, ${callback.webhookTimestamp}
      FROM attempt
      ON CONFLICT ("webhookId") DO NOTHING
      RETURNING "id"
    ), filled AS (
      UPDATE "ai_provider_attempts" SET "providerPredictionId" = ${callback.predictionId}
      WHERE "id" = ${callback.providerAttemptId} AND "providerPredictionId" IS NULL AND "status" = 'CREATING'
        AND EXISTS (SELECT 1 FROM receipt)
        AND NOT EXISTS (
          SELECT 1 FROM "ai_provider_attempts" other WHERE other."providerPredictionId" = ${callback.predictionId})
      RETURNING "id"
    )
    SELECT attempt."aiJobId", attempt."providerPredictionId", attempt."jobStatus",
      (SELECT count(*) FROM receipt)::int AS "inserted", (SELECT count(*) FROM filled)::int AS "filled"
    FROM attempt`;
  const row = rows[0];
  if (row === undefined) return { kind: 'unknown-attempt' };
  const duplicate = row.inserted === 0;
  const jobOpen = !isTerminalJobStatus(row.jobStatus);
  if (row.filled === 1) {
    return { kind: 'matched', aiJobId: row.aiJobId, jobOpen, duplicate, filledPredictionId: true };
  }
  if (row.providerPredictionId === callback.predictionId) {
    return { kind: 'matched', aiJobId: row.aiJobId, jobOpen, duplicate, filledPredictionId: false };
  }
  return { kind: 'mismatch', aiJobId: row.aiJobId, duplicate, persistedPredictionId: row.providerPredictionId };
}
