import type { SqlPool } from '@staging/db/client';
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
  inserted: boolean;
  filled: boolean;
}

/**
 * Records a verified provider callback (ARCHITECTURE.md: verify, record, wake, answer) in one SQL
 * statement, which is atomic and one round trip (the receiver must answer within milliseconds):
 *
 * 1. the attempt must exist (else nothing is written and no row comes back);
 * 2. the receipt is inserted, keyed by webhook-id, so a redelivery inserts nothing;
 * 3. a CREATING attempt without a prediction id is the "create response lost" case (the worker
 *    crashed or timed out after the provider accepted the prediction): the body's id is filled
 *    in, conditionally, so it never overwrites an id the worker persisted meanwhile (docs/system.md 3.1:
 *    a persisted prediction id never changes), and never takes an id another attempt holds
 *    (that cannot be this attempt's prediction, and would break the unique index).
 *
 * Sent on the raw `pg` pool: the ORM's per-query cost was most of the receiver's CPU.
 * The api never changes job or attempt status: the woken worker reads the provider's state.
 */
export async function recordProviderCallback(sql: SqlPool, callback: VerifiedCallback): Promise<CallbackOutcome> {
  const { rows } = await sql.query<RecordedRow>({
    name: 'record-provider-callback',
    text: RECORD_CALLBACK_SQL,
    values: [callback.providerAttemptId, callback.webhookId, callback.predictionId, callback.predictionStatus, callback.webhookTimestamp],
  });
  const row = rows[0];
  if (row === undefined) return { kind: 'unknown-attempt' };
  const duplicate = !row.inserted;
  const jobOpen = !isTerminalJobStatus(row.jobStatus);
  if (row.filled) {
    return { kind: 'matched', aiJobId: row.aiJobId, jobOpen, duplicate, filledPredictionId: true };
  }
  if (row.providerPredictionId === callback.predictionId) {
    return { kind: 'matched', aiJobId: row.aiJobId, jobOpen, duplicate, filledPredictionId: false };
  }
  return { kind: 'mismatch', aiJobId: row.aiJobId, duplicate, persistedPredictionId: row.providerPredictionId };
}

// $1 attempt id, $2 webhook-id, $3 prediction id, $4 provider status, $5 webhook timestamp.
// A named (prepared) statement: each pooled connection plans it once.
const RECORD_CALLBACK_SQL = `
  WITH attempt AS (
    SELECT a."id", a."aiJobId", a."providerPredictionId", a."status", j."status"::text AS "jobStatus"
    FROM "ai_provider_attempts" a JOIN "ai_jobs" j ON j."id" = a."aiJobId"
    WHERE a."id" = $1
  ), receipt AS (
    INSERT INTO "ai_provider_webhook_receipts"
      ("webhookId", "providerAttemptId", "providerPredictionId", "providerStatus", "webhookTimestamp")
    SELECT $2, attempt."id", $3, $4, $5::timestamptz
    FROM attempt
    ON CONFLICT ("webhookId") DO NOTHING
    RETURNING "id"
  ), filled AS (
    UPDATE "ai_provider_attempts" SET "providerPredictionId" = $3
    WHERE "id" = $1 AND "providerPredictionId" IS NULL AND "status" = 'CREATING'
      AND EXISTS (SELECT 1 FROM receipt)
      AND NOT EXISTS (SELECT 1 FROM "ai_provider_attempts" other WHERE other."providerPredictionId" = $3)
    RETURNING "id"
  )
  SELECT attempt."aiJobId", attempt."providerPredictionId", attempt."jobStatus",
    EXISTS (SELECT 1 FROM receipt) AS "inserted", EXISTS (SELECT 1 FROM filled) AS "filled"
  FROM attempt`;
