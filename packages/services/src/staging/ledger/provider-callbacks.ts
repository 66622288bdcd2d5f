import { queryPool } from '@staging/db/client';
import type { SqlPool } from '@staging/db/client';
import { attemptStatusesAccepting } from '@staging/domain/attempt-states';
import type { JobStatus } from '@staging/domain/staging-states';
import { statusListText } from './status-sql';

/** A provider callback whose signature the receiver verified: the body's prediction plus the signed headers. */
export interface VerifiedCallback {
  providerAttemptId: string;
  webhookId: string;
  webhookTimestamp: Date;
  predictionId: string;
  predictionStatus: string;
}

/** What recording one callback found and wrote; undefined for a callback whose attempt does not exist. */
export interface RecordedCallback {
  aiJobId: string;
  jobStatus: JobStatus;
  /** The attempt's prediction id after the statement (filled in by it, or as it was, or as re-read). */
  providerPredictionId: string | null;
  /** False for a redelivered webhook-id: nothing was written for it. */
  inserted: boolean;
  /** This callback's prediction id was filled in on the attempt. */
  filled: boolean;
}

interface RecordedRow extends RecordedCallback {
  /** 1-based position of the callback in the batch. */
  position: string;
  attemptId: string;
}

// The fill stores the prediction id a lost create response never delivered, so only on an attempt
// that is still waiting for it (PREDICTION_PERSISTED will move it on). The receiver never changes a
// status: the woken worker reads the provider's state.
const FILLABLE = statusListText(attemptStatusesAccepting('PREDICTION_PERSISTED'));

/**
 * One SQL statement for a batch of callbacks, atomic and one round trip, with the result each
 * would have had alone in some order of the batch (they arrived concurrently, so any order is
 * one the provider could have produced):
 *
 * 1. a callback for an attempt that does not exist writes nothing (undefined);
 * 2. the receipt is inserted, keyed by webhook-id, so a redelivery inserts nothing (within the
 *    batch too: only the first callback of a webhook-id may write);
 * 3. an attempt waiting for its prediction id (CREATING) without one is the "create response
 *    lost" case (the worker crashed or timed out after the provider accepted the prediction): the
 *    first new callback's id is filled in, conditionally, so it never overwrites an id the worker
 *    persisted meanwhile (docs/system.md 3.1: a persisted prediction id never changes), and never
 *    takes an id another attempt holds (that cannot be this attempt's prediction, and would break
 *    the unique index). Callbacks after it compare against the filled id.
 *
 * Sent on the raw `pg` pool: the ORM's per-query cost was most of the receiver's CPU.
 */
export async function recordProviderCallbacks(sql: SqlPool, callbacks: readonly VerifiedCallback[]): Promise<(RecordedCallback | undefined)[]> {
  const { rows } = await queryPool<RecordedRow>(sql, {
    name: 'record-provider-callbacks',
    text: RECORD_CALLBACKS_SQL,
    values: [
      callbacks.map((callback) => callback.providerAttemptId),
      callbacks.map((callback) => callback.webhookId),
      callbacks.map((callback) => callback.predictionId),
      callbacks.map((callback) => callback.predictionStatus),
      callbacks.map((callback) => callback.webhookTimestamp.toISOString()),
    ],
  });
  const byPosition = new Map(rows.map((row) => [Number(row.position), row]));
  await rereadLostFillRaces(sql, rows);
  return callbacks.map((_, index) => byPosition.get(index + 1));
}

/**
 * An attempt this statement read without a prediction id and did not fill may have lost a race:
 * the worker (or another batch) stored the id after the statement's snapshot was taken, so the
 * conditional fill skipped the row and the snapshot still reads NULL. Answering 409 with a
 * PREDICTION_MISMATCH alert would then cry "second purchase" over the one prediction both sides
 * agree on, so those attempts are read again (one more statement, only on this rare path).
 */
async function rereadLostFillRaces(sql: SqlPool, rows: RecordedRow[]): Promise<void> {
  const unsettled = rows.filter((row) => row.providerPredictionId === null && !row.filled);
  if (unsettled.length === 0) return;
  const { rows: current } = await queryPool<{ id: string; providerPredictionId: string | null }>(sql, {
    text: `SELECT "id", "providerPredictionId" FROM "ai_provider_attempts" WHERE "id" = ANY($1::text[])`,
    values: [unsettled.map((row) => row.attemptId)],
  });
  const predictionOf = new Map(current.map((attempt) => [attempt.id, attempt.providerPredictionId]));
  for (const row of unsettled) row.providerPredictionId = predictionOf.get(row.attemptId) ?? null;
}

// Arrays, one element per callback: $1 attempt id, $2 webhook-id, $3 prediction id, $4 provider
// status, $5 webhook timestamp. A named (prepared) statement: each pooled connection plans it once.
const RECORD_CALLBACKS_SQL = `
  WITH callback AS (
    SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::timestamptz[]) WITH ORDINALITY
      AS c("attemptId", "webhookId", "predictionId", "providerStatus", "webhookTimestamp", "position")
  ), known AS (
    SELECT c.*, a."aiJobId", a."providerPredictionId" AS "persistedPredictionId", a."status" AS "attemptStatus",
      j."status"::text AS "jobStatus",
      c."position" = min(c."position") OVER (PARTITION BY c."webhookId") AS "firstOfWebhookId"
    FROM callback c
    JOIN "ai_provider_attempts" a ON a."id" = c."attemptId"
    JOIN "ai_jobs" j ON j."id" = a."aiJobId"
  ), receipt AS (
    INSERT INTO "ai_provider_webhook_receipts"
      ("webhookId", "providerAttemptId", "providerPredictionId", "providerStatus", "webhookTimestamp")
    SELECT "webhookId", "attemptId", "predictionId", "providerStatus", "webhookTimestamp"
    FROM known WHERE "firstOfWebhookId"
    -- One global order for the unique-index entries, so two batches holding the same webhook-ids
    -- (an original and its redelivery) queue instead of deadlocking.
    ORDER BY "webhookId"
    ON CONFLICT ("webhookId") DO NOTHING
    RETURNING "webhookId"
  ), fill AS (
    SELECT DISTINCT ON (k."attemptId") k."attemptId", k."predictionId", k."position"
    FROM known k
    WHERE k."firstOfWebhookId" AND k."persistedPredictionId" IS NULL AND k."attemptStatus" IN (${FILLABLE})
      AND EXISTS (SELECT 1 FROM receipt r WHERE r."webhookId" = k."webhookId")
      AND NOT EXISTS (SELECT 1 FROM "ai_provider_attempts" other WHERE other."providerPredictionId" = k."predictionId")
    ORDER BY k."attemptId", k."position"
  ), filled AS (
    UPDATE "ai_provider_attempts" a SET "providerPredictionId" = f."predictionId"
    FROM fill f
    WHERE a."id" = f."attemptId" AND a."providerPredictionId" IS NULL AND a."status" IN (${FILLABLE})
    RETURNING a."id", a."providerPredictionId", f."position"
  )
  SELECT k."position", k."attemptId", k."aiJobId", k."jobStatus",
    COALESCE(f."providerPredictionId", k."persistedPredictionId") AS "providerPredictionId",
    k."firstOfWebhookId" AND EXISTS (SELECT 1 FROM receipt r WHERE r."webhookId" = k."webhookId") AS "inserted",
    f."position" IS NOT DISTINCT FROM k."position" AS "filled"
  FROM known k LEFT JOIN filled f ON f."id" = k."attemptId"`;
