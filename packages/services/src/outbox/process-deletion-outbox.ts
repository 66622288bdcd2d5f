import type { Db } from '@staging/db/client';
import type { Alert } from '@staging/platform/error-tracker';
import type { Logger } from '@staging/platform/logger';
import { scrubText } from '@staging/platform/logger';
import type { ObjectStorage } from '@staging/platform/storage';
import { derivativeObjectKeys } from '@staging/domain/image-derivatives';

/** What the deletion-outbox batch needs. */
export interface DeletionOutboxDeps {
  db: Db;
  storage: Pick<ObjectStorage, 'deleteObject'>;
  logger: Logger;
  clock: { now(): Date };
  /** Error-tracker hook (e.g. `captureAlert`); called once when a row becomes FAILED. */
  alert: (alert: Alert) => void;
}

/** Tuning of one batch. */
export interface DeletionOutboxOptions {
  /** Rows claimed per batch. */
  batchSize: number;
  /** A row that failed this many times becomes FAILED and raises an alert. */
  maxAttempts: number;
  /** A PROCESSING row locked longer ago than this is considered abandoned (crashed worker) and reclaimed. */
  stuckAfterMs: number;
  /** First retry delay; doubles per failure up to {@link MAX_RETRY_DELAY_MS}. */
  retryBaseMs?: number;
}

/** Defaults for the worker's 30-second loop: eight tries over roughly an hour, then FAILED. */
export const DEFAULT_DELETION_OUTBOX_OPTIONS = {
  batchSize: 50,
  maxAttempts: 8,
  stuckAfterMs: 5 * 60_000,
  retryBaseMs: 30_000,
} as const satisfies Required<DeletionOutboxOptions>;

export const MAX_RETRY_DELAY_MS = 60 * 60_000;

/** Counts of one batch. */
export interface DeletionOutboxBatchResult {
  claimed: number;
  deleted: number;
  retried: number;
  failed: number;
  /** Rows another worker reclaimed while this one was deleting; their outcome is that worker's. */
  lost: number;
}

interface ClaimedRow {
  id: string;
  objectKey: string;
  attempts: number;
}

const MAX_ERROR_LENGTH = 1_000;

/** Delay before retry number `attempts` (1-based): base, 2×base, 4×base, … capped at an hour. */
export function deletionRetryDelayMs(attempts: number, retryBaseMs: number): number {
  return Math.min(retryBaseMs * 2 ** Math.max(0, attempts - 1), MAX_RETRY_DELAY_MS);
}

/**
 * Processes one batch of storage_deletion_outbox (docs/system.md 2.6, 3.3):
 *
 * 1. Claims up to `batchSize` rows that are PENDING and due, or PROCESSING with a lock older than
 *    `stuckAfterMs`, in one statement with `FOR UPDATE SKIP LOCKED`, marking them PROCESSING with
 *    `lockedAt` = now. Concurrent workers therefore claim disjoint rows.
 * 2. Deletes each exact objectKey (a key already gone counts as deleted).
 * 3. Success → DELETED with processedAt. Failure → attempts + 1 and lastError, back to PENDING with
 *    an exponential `availableAt`; at `maxAttempts` → FAILED and one alert.
 *
 * Each outcome is written only if the row is still locked by this claim (same `lockedAt`), so a
 * worker that was too slow and got reclaimed cannot overwrite the reclaimer's result.
 */
export async function processDeletionOutboxBatch(deps: DeletionOutboxDeps, options: DeletionOutboxOptions): Promise<DeletionOutboxBatchResult> {
  const { db, storage, logger } = deps;
  const retryBaseMs = options.retryBaseMs ?? DEFAULT_DELETION_OUTBOX_OPTIONS.retryBaseMs;
  const claimedAt = deps.clock.now();
  const stuckBefore = new Date(claimedAt.getTime() - options.stuckAfterMs);

  const rows = await db.$queryRaw<ClaimedRow[]>`
    UPDATE "storage_deletion_outbox" AS o
    SET "status" = 'PROCESSING', "lockedAt" = ${claimedAt}
    WHERE o."id" IN (
      SELECT "id" FROM "storage_deletion_outbox"
      WHERE ("status" = 'PENDING' AND "availableAt" <= ${claimedAt})
         OR ("status" = 'PROCESSING' AND "lockedAt" < ${stuckBefore})
      ORDER BY "availableAt", "id"
      LIMIT ${options.batchSize}
      FOR UPDATE SKIP LOCKED
    )
    RETURNING o."id", o."objectKey", o."attempts"`;

  const result: DeletionOutboxBatchResult = { claimed: rows.length, deleted: 0, retried: 0, failed: 0, lost: 0 };
  for (const row of rows) {
    try {
      await storage.deleteObject(row.objectKey);
      // Resized copies live under the source's key (image-derivatives.ts); a failure here retries
      // the whole row, and deleting an already deleted key succeeds.
      for (const key of derivativeObjectKeys(row.objectKey)) await storage.deleteObject(key);
    } catch (error) {
      await recordFailure(deps, options, retryBaseMs, row, claimedAt, error, result);
      continue;
    }
    const now = deps.clock.now();
    const marked = await db.$executeRaw`
      UPDATE "storage_deletion_outbox"
      SET "status" = 'DELETED', "processedAt" = ${now}, "lockedAt" = NULL
      WHERE "id" = ${row.id} AND "status" = 'PROCESSING' AND "lockedAt" = ${claimedAt}`;
    if (marked === 1) {
      result.deleted += 1;
      logger.info({ event: 'storage_deletion.deleted', outboxId: row.id, objectKey: row.objectKey, attempts: row.attempts + 1 }, 'storage_deletion.deleted');
    } else {
      result.lost += 1;
    }
  }
  return result;
}

async function recordFailure(
  deps: DeletionOutboxDeps,
  options: DeletionOutboxOptions,
  retryBaseMs: number,
  row: ClaimedRow,
  claimedAt: Date,
  error: unknown,
  result: DeletionOutboxBatchResult,
): Promise<void> {
  const attempts = row.attempts + 1;
  const lastError = scrubText(describeError(error)).slice(0, MAX_ERROR_LENGTH);
  const isFinal = attempts >= options.maxAttempts;
  const now = deps.clock.now();
  const availableAt = new Date(now.getTime() + deletionRetryDelayMs(attempts, retryBaseMs));
  const marked = await deps.db.$executeRaw`
    UPDATE "storage_deletion_outbox"
    SET "attempts" = ${attempts}, "lastError" = ${lastError}, "lockedAt" = NULL,
        "status" = ${isFinal ? 'FAILED' : 'PENDING'}::"DeletionStatus",
        "availableAt" = ${isFinal ? now : availableAt}
    WHERE "id" = ${row.id} AND "status" = 'PROCESSING' AND "lockedAt" = ${claimedAt}`;
  if (marked !== 1) {
    result.lost += 1;
    return;
  }
  const fields = { outboxId: row.id, objectKey: row.objectKey, attempts, lastError };
  if (!isFinal) {
    result.retried += 1;
    deps.logger.warn({ event: 'storage_deletion.retry_scheduled', ...fields, availableAt: availableAt.toISOString() }, 'storage_deletion.retry_scheduled');
    return;
  }
  result.failed += 1;
  deps.logger.error({ event: 'storage_deletion.failed', ...fields }, 'storage_deletion.failed');
  // Only the run whose update made the row FAILED gets here, so the alert is raised once.
  deps.alert({
    level: 'error',
    message: 'Storage object could not be deleted; the outbox row is FAILED and needs investigation',
    tags: { errorCode: 'STORAGE_DELETION_FAILED', outboxId: row.id },
    extra: { objectKey: row.objectKey, attempts, lastError },
  });
}

function describeError(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}
