import type { Db } from '@staging/db/client';
import type { Alert } from '@staging/platform/error-tracker';
import type { Logger } from '@staging/platform/logger';
import type { ObjectStorage } from '@staging/platform/storage';
import {
  DEFAULT_DELETION_OUTBOX_OPTIONS,
  processDeletionOutboxBatch,
} from '@staging/services/outbox/process-deletion-outbox';
import type { DeletionOutboxOptions } from '@staging/services/outbox/process-deletion-outbox';

/** Batches per pass at most, so one pass over a huge backlog still ends and yields. */
const MAX_BATCHES_PER_PASS = 20;

export interface DeletionOutboxPassDeps {
  db: Db;
  storage: Pick<ObjectStorage, 'deleteObject'>;
  logger: Logger;
  captureAlert: (alert: Alert) => void;
  options?: Partial<DeletionOutboxOptions>;
}

/**
 * One pass of the storage-deletion outbox (docs/system.md 1: every 30 s): claims and processes batches
 * until one comes back short of the batch size. Claiming (SKIP LOCKED), retries with backoff,
 * FAILED after a bounded number of attempts and its alert live in processDeletionOutboxBatch.
 */
export async function runDeletionOutboxPass(deps: DeletionOutboxPassDeps): Promise<void> {
  const options: DeletionOutboxOptions = { ...DEFAULT_DELETION_OUTBOX_OPTIONS, ...deps.options };
  for (let batch = 0; batch < MAX_BATCHES_PER_PASS; batch += 1) {
    const result = await processDeletionOutboxBatch(
      {
        db: deps.db,
        storage: deps.storage,
        logger: deps.logger,
        clock: { now: () => new Date() },
        alert: deps.captureAlert,
      },
      options,
    );
    if (result.claimed < options.batchSize) return;
  }
}
