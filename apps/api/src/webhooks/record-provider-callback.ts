import { DatabaseError, queryPool } from '@staging/db/client';
import type { SqlPool } from '@staging/db/client';
import { groupCommit } from '@staging/platform/group-commit';
import type { Logger } from '@staging/platform/logger';
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

/** Records one verified callback and answers its outcome once its receipt is committed. */
export type ProviderCallbackRecorder = (callback: VerifiedCallback) => Promise<CallbackOutcome>;

interface RecordedRow {
  /** 1-based position of the callback in the batch. */
  position: string;
  attemptId: string;
  aiJobId: string;
  /** The attempt's prediction id after this statement (filled in by it, or as it was, or as re-read). */
  providerPredictionId: string | null;
  jobStatus: JobStatus;
  inserted: boolean;
  filled: boolean;
}

/** Batch statements running at once; the pool (10 connections) is shared with every other route. */
const BATCHES_IN_FLIGHT = 2;
/** Keeps one statement's arrays and result small; a larger burst waits for the next slot. */
const MAX_CALLBACKS_PER_BATCH = 100;

/**
 * Records verified provider callbacks (ARCHITECTURE.md: verify, record, wake, answer) with group
 * commit: callbacks arriving while both statement slots are busy share the next statement, so a
 * burst costs one round trip and one commit per batch instead of per callback, and each caller
 * still gets its outcome only after its receipt is committed. A lone callback goes out at once.
 *
 * A batch the database refused for its content or a race (SQLSTATE class 22 data, 23 constraint,
 * 40 deadlock or serialization) is retried one callback per statement, in turn: one callback's
 * failure must not fail the others, a batch that wrote nothing is safe to repeat, and in turn
 * they cannot race each other again. Any other failure (connection lost, server shutting down)
 * fails the whole batch at once rather than queueing a statement per callback behind it; those
 * callers, like a lone callback's, answer 5xx (503 for a database that cannot serve) and the
 * provider retries.
 */
export function createProviderCallbackRecorder(sql: SqlPool, logger: Logger): ProviderCallbackRecorder {
  const recordBatch = groupCommit(
    async (callbacks: VerifiedCallback[]): Promise<PromiseSettledResult<CallbackOutcome>[]> => {
      try {
        const outcomes = await recordProviderCallbacks(sql, callbacks);
        return outcomes.map((value) => ({ status: 'fulfilled', value }));
      } catch (error) {
        if (callbacks.length === 1 || !refusedForContentOrRace(error)) throw error;
        logger.warn({ event: 'provider_webhook.batch_failed', callbacks: callbacks.length, err: error }, 'provider_webhook.batch_failed');
        return recordOneByOne(sql, callbacks);
      }
    },
    { maxInFlight: BATCHES_IN_FLIGHT, maxBatchSize: MAX_CALLBACKS_PER_BATCH },
  );
  return async (callback) => {
    const result = await recordBatch(callback);
    if (result.status === 'rejected') throw result.reason;
    return result.value;
  };
}

function refusedForContentOrRace(error: unknown): boolean {
  return error instanceof DatabaseError && ['22', '23', '40'].includes(error.code?.slice(0, 2) ?? '');
}

async function recordOneByOne(sql: SqlPool, callbacks: VerifiedCallback[]): Promise<PromiseSettledResult<CallbackOutcome>[]> {
  const results: PromiseSettledResult<CallbackOutcome>[] = [];
  for (const callback of callbacks) {
    try {
      const [outcome] = await recordProviderCallbacks(sql, [callback]);
      results.push({ status: 'fulfilled', value: outcome! });
    } catch (reason) {
      results.push({ status: 'rejected', reason });
    }
  }
  return results;
}

/**
 * One SQL statement for a batch of callbacks, atomic and one round trip, with the outcome each
 * would have had alone in some order of the batch (they arrived concurrently, so any order is
 * one the provider could have produced):
 *
 * 1. a callback for an attempt that does not exist writes nothing (`unknown-attempt`);
 * 2. the receipt is inserted, keyed by webhook-id, so a redelivery inserts nothing (within the
 *    batch too: only the first callback of a webhook-id may write);
 * 3. a CREATING attempt without a prediction id is the "create response lost" case (the worker
 *    crashed or timed out after the provider accepted the prediction): the first new callback's
 *    id is filled in, conditionally, so it never overwrites an id the worker persisted meanwhile
 *    (docs/system.md 3.1: a persisted prediction id never changes), and never takes an id another
 *    attempt holds (that cannot be this attempt's prediction, and would break the unique index).
 *    Callbacks after it compare against the filled id.
 *
 * Sent on the raw `pg` pool: the ORM's per-query cost was most of the receiver's CPU.
 * The api never changes job or attempt status: the woken worker reads the provider's state.
 */
async function recordProviderCallbacks(sql: SqlPool, callbacks: VerifiedCallback[]): Promise<CallbackOutcome[]> {
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
  return callbacks.map((callback, index) => outcomeOf(callback, byPosition.get(index + 1)));
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

function outcomeOf(callback: VerifiedCallback, row: RecordedRow | undefined): CallbackOutcome {
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
    WHERE k."firstOfWebhookId" AND k."persistedPredictionId" IS NULL AND k."attemptStatus" = 'CREATING'
      AND EXISTS (SELECT 1 FROM receipt r WHERE r."webhookId" = k."webhookId")
      AND NOT EXISTS (SELECT 1 FROM "ai_provider_attempts" other WHERE other."providerPredictionId" = k."predictionId")
    ORDER BY k."attemptId", k."position"
  ), filled AS (
    UPDATE "ai_provider_attempts" a SET "providerPredictionId" = f."predictionId"
    FROM fill f
    WHERE a."id" = f."attemptId" AND a."providerPredictionId" IS NULL AND a."status" = 'CREATING'
    RETURNING a."id", a."providerPredictionId", f."position"
  )
  SELECT k."position", k."attemptId", k."aiJobId", k."jobStatus",
    COALESCE(f."providerPredictionId", k."persistedPredictionId") AS "providerPredictionId",
    k."firstOfWebhookId" AND EXISTS (SELECT 1 FROM receipt r WHERE r."webhookId" = k."webhookId") AS "inserted",
    f."position" IS NOT DISTINCT FROM k."position" AS "filled"
  FROM known k LEFT JOIN filled f ON f."id" = k."attemptId"`;
