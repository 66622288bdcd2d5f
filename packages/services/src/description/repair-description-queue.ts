import type { Db } from '@staging/db/client';
import { OPEN_DESCRIPTION_JOB_STATUSES } from '@staging/domain/description-states';
import type { Logger } from '@staging/platform/logger';
import { enqueueDescriptionJob } from './ai-queue';
import type { AiQueue } from './ai-queue';
import { sqlStatusList } from '../staging/ledger/status-sql';

/** Open jobs re-added per pass at most; the next pass continues with the rest. */
const REPAIR_BATCH = 1_000;

/**
 * Re-adds the message of every open DESCRIPTION job (PENDING or PROCESSING with a
 * `{ propertyId }` payload; v1 rows have none and are history). The add is a no-op for a message
 * that still exists, so this only heals messages Redis lost or an enqueue that failed after commit.
 */
export async function repairDescriptionQueue(deps: {
  db: Db;
  aiQueue: AiQueue;
  logger: Logger;
}): Promise<{ checked: number; errors: number }> {
  const open = await deps.db.$queryRaw<{ id: string }[]>`
    SELECT "id" FROM "ai_jobs"
    WHERE "type" = 'DESCRIPTION' AND "status" IN (${sqlStatusList(OPEN_DESCRIPTION_JOB_STATUSES)}) AND "payload" ? 'propertyId'
    ORDER BY "createdAt" LIMIT ${REPAIR_BATCH}`;
  let errors = 0;
  for (const job of open) {
    try {
      await enqueueDescriptionJob(deps.aiQueue, job.id);
    } catch (error) {
      errors += 1;
      deps.logger.warn(
        { event: 'ai_description.repair_failed', jobId: job.id, err: error },
        'ai_description.repair_failed',
      );
    }
  }
  return { checked: open.length, errors };
}
