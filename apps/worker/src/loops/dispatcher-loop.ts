import type { Db } from '@staging/db/client';
import { jobStatusesAccepting } from '@staging/domain/staging-states';
import type { Logger } from '@staging/platform/logger';
import { repairStagingQueue } from '@staging/services/staging/repair-queue';
import { wakeStagingJob } from '@staging/services/staging/staging-queue';
import type { StagingQueue } from '@staging/services/staging/staging-queue';

/**
 * One dispatcher pass. ai_jobs is the outbox and the queue only delivers, so:
 * 1. repairStagingQueue re-adds every nonterminal staging job whose queue job is missing (Redis
 *    flushed, enqueue failed after commit) with the same jobId;
 * 2. with the kill switch on, jobs parked as PROVIDER_DISABLED are woken at once instead of at
 *    their next re-check, so turning the flag on resumes them promptly.
 * The same repair runs by hand with packages/services/src/staging/repair-queue-cli.ts.
 */
export async function runDispatcherPass(deps: {
  db: Db;
  queue: StagingQueue;
  logger: Logger;
  stagingEnabled: boolean;
}): Promise<void> {
  const result = await repairStagingQueue({ db: deps.db, stagingQueue: deps.queue, logger: deps.logger });
  deps.logger.debug({ loop: 'staging-dispatcher', result }, 'staging queue repair pass');
  if (!deps.stagingEnabled) return;
  const parked = await deps.db.aiJob.findMany({
    where: {
      type: 'ROOM_STAGING',
      phase: 'PROVIDER_DISABLED',
      status: { in: jobStatusesAccepting('PROVIDER_DISABLED') },
    },
    select: { id: true },
    take: 1_000,
  });
  for (const job of parked) await wakeStagingJob(deps.queue, job.id);
  if (parked.length > 0) deps.logger.info({ count: parked.length }, 'woke jobs parked by the kill switch');
}
