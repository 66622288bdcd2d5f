import { DatabaseError } from '@staging/db/client';
import type { SqlPool } from '@staging/db/client';
import { groupCommit } from '@staging/platform/group-commit';
import type { Logger } from '@staging/platform/logger';
import { isTerminalJobStatus } from '@staging/domain/staging-states';
import { recordProviderCallbacks } from '@staging/services/staging/ledger/provider-callbacks';
import type { RecordedCallback, VerifiedCallback } from '@staging/services/staging/ledger/provider-callbacks';

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

/**
 * Batch statements running at once: one, so every callback arriving while it runs shares the next
 * (docs/decisions/provider.md "Webhook receipts are committed in groups" has the measurements).
 */
const BATCHES_IN_FLIGHT = 1;
/** Keeps one statement's arrays and result small; a larger burst waits for the next statement. */
const MAX_CALLBACKS_PER_BATCH = 100;

/**
 * Records verified provider callbacks (ARCHITECTURE.md: verify, record, wake, answer) with group
 * commit: callbacks arriving while a statement is running share the next one, so a
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
        const outcomes = await recordCallbackOutcomes(sql, callbacks);
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
      const [recorded] = await recordProviderCallbacks(sql, [callback]);
      results.push({ status: 'fulfilled', value: outcomeOf(callback, recorded) });
    } catch (reason) {
      results.push({ status: 'rejected', reason });
    }
  }
  return results;
}

/** Records a batch through the staging ledger (one statement) and answers each callback's outcome. */
async function recordCallbackOutcomes(sql: SqlPool, callbacks: VerifiedCallback[]): Promise<CallbackOutcome[]> {
  const recorded = await recordProviderCallbacks(sql, callbacks);
  return callbacks.map((callback, index) => outcomeOf(callback, recorded[index]));
}

function outcomeOf(callback: VerifiedCallback, row: RecordedCallback | undefined): CallbackOutcome {
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
