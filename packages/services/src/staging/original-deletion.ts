import type { Db } from '@staging/db/client';
import { NONTERMINAL_JOB_STATUSES } from '@staging/domain/staging-states';
import type { StagingActionDeps } from './staging-deps';
import { removeWaitingStagingJob, wakeStagingJob, withQueueTimeout } from './staging-queue';

/** Staging jobs an original's deletion will move, as read before deleting it. */
export interface JobsAffectedByOriginalDeletion {
  /** PENDING now: the deletion trigger cancels them outright. */
  canceledJobIds: string[];
  /** PROCESSING, RETRYING or CANCEL_REQUESTED now: the worker must cancel at the provider. */
  cancelRequestedJobIds: string[];
}

/**
 * Reads the nonterminal staging jobs of the given originals, split the way migration 0010's
 * deletion trigger will move them. Call it in the deleting transaction, before the DELETE
 * (afterwards `originalImageId` is already NULL), and pass the result to {@link afterOriginalDeleted}.
 */
export async function stagingJobsAffectedByOriginalDeletion(
  db: Pick<Db, 'aiRoomStagingJob'>,
  originalImageIds: readonly string[],
): Promise<JobsAffectedByOriginalDeletion> {
  const rows = await db.aiRoomStagingJob.findMany({
    where: {
      originalImageId: { in: [...originalImageIds] },
      aiJob: { type: 'ROOM_STAGING', status: { in: [...NONTERMINAL_JOB_STATUSES] } },
    },
    select: { aiJobId: true, aiJob: { select: { status: true } } },
  });
  return {
    canceledJobIds: rows.filter((r) => r.aiJob.status === 'PENDING').map((r) => r.aiJobId),
    cancelRequestedJobIds: rows.filter((r) => r.aiJob.status !== 'PENDING').map((r) => r.aiJobId),
  };
}

/** Counts of one {@link afterOriginalDeleted} call. */
export interface AfterOriginalDeletedCounts {
  removed: number;
  woken: number;
  /** Jobs whose queue call failed; the worker's polling or the repair run covers them. */
  failed: number;
}

/**
 * Queue follow-up after an original image was deleted (the trigger already changed the jobs):
 * removes the waiting messages of canceled jobs and wakes the jobs that must cancel at the
 * provider. Each job is routed by its status now, not by the list it came in, because a job read
 * as PENDING may have been picked up before the DELETE ran (the trigger then made it
 * CANCEL_REQUESTED). Queue failures are logged, never thrown: the deletion has committed.
 */
export async function afterOriginalDeleted(
  deps: Pick<StagingActionDeps, 'db' | 'stagingQueue' | 'logger'>,
  input: JobsAffectedByOriginalDeletion,
): Promise<AfterOriginalDeletedCounts> {
  const counts: AfterOriginalDeletedCounts = { removed: 0, woken: 0, failed: 0 };
  const ids = [...new Set([...input.canceledJobIds, ...input.cancelRequestedJobIds])];
  if (ids.length === 0) return counts;
  const jobs = await deps.db.aiJob.findMany({ where: { id: { in: ids } }, select: { id: true, status: true } });
  for (const job of jobs) {
    const { status } = job;
    try {
      if (status === 'CANCELED') {
        if ((await withQueueTimeout(removeWaitingStagingJob(deps.stagingQueue, job.id), 'remove waiting job')) === 'removed') counts.removed += 1;
      } else if (status === 'CANCEL_REQUESTED') {
        await withQueueTimeout(wakeStagingJob(deps.stagingQueue, job.id), 'wake job');
        counts.woken += 1;
      }
    } catch (error) {
      counts.failed += 1;
      deps.logger.warn({ event: 'ai_room_staging.original_deleted_queue_failed', jobId: job.id, status, err: error }, 'ai_room_staging.original_deleted_queue_failed');
    }
  }
  return counts;
}
