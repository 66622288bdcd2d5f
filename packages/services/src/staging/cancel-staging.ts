import type { StagingJobDto } from '@staging/contracts/staging';
import { accessiblePropertySql } from '../access/property-access';
import type { Actor } from '../access/property-access';
import { loadAccessibleJob, toStagingJobDto } from './get-jobs';
import { requestJobCancel } from './ledger/cancel-request';
import type { StagingActionDeps } from './staging-deps';
import { removeWaitingStagingJob, wakeStagingJob, withQueueTimeout } from './staging-queue';

/**
 * Cancels a staging job (docs/system.md 3.1):
 *
 * - PENDING → CANCELED with cancelRequestedAt and canceledAt; the waiting queue message is removed
 *   and no attempt is ever reserved;
 * - PROCESSING or RETRYING → CANCEL_REQUESTED; the job is woken so the worker cancels at the
 *   provider (or discards an output that won the race);
 * - CANCEL_REQUESTED → unchanged (repeat cancel buys nothing; the job is woken again in case the
 *   first wake-up was lost);
 * - SUCCESS, CANCELED, FAILED → unchanged.
 *
 * One conditional UPDATE decides, so a worker moving the job at the same moment either sees the
 * new status or makes this update match nothing; either way the returned state is the truth.
 * Queue calls happen after the commit and are best-effort: a message the worker later picks up for
 * a CANCELED job is a no-op, and a missed wake is covered by the worker's polling.
 *
 * @returns the job as it is after the call.
 * @throws AppError NOT_FOUND for a missing job or one the actor cannot manage.
 */
export async function cancelStaging(deps: StagingActionDeps, input: { actor: Actor; aiJobId: string }): Promise<StagingJobDto> {
  const { db, logger, stagingQueue } = deps;
  const before = await loadAccessibleJob(db, input.actor, input.aiJobId);
  const now = deps.clock.now();

  const moved = await requestJobCancel(db, before.id, now);

  if (moved !== undefined) {
    logger.info(
      { event: 'ai_room_staging.cancel_requested', jobId: before.id, fromStatus: moved.fromStatus, toStatus: moved.status, actorUserId: input.actor.id },
      'ai_room_staging.cancel_requested',
    );
  }
  const current = moved?.status ?? (await db.aiJob.findUniqueOrThrow({ where: { id: before.id }, select: { status: true } })).status;

  try {
    if (moved?.status === 'CANCELED') {
      await withQueueTimeout(removeWaitingStagingJob(stagingQueue, before.id), 'remove waiting job');
    } else if (current === 'CANCEL_REQUESTED') {
      await withQueueTimeout(wakeStagingJob(stagingQueue, before.id), 'wake job');
    }
  } catch (error) {
    logger.warn({ event: 'ai_room_staging.cancel_queue_failed', jobId: before.id, status: current, err: error }, 'ai_room_staging.cancel_queue_failed');
  }

  return toStagingJobDto(await loadAccessibleJob(db, input.actor, before.id), deps.clock.now());
}

/** Most jobs one submission holds (MAX_ASSIGNMENTS_PER_SUBMISSION), so one cancel covers a batch. */
const SUBMISSION_CANCEL_LIMIT = 50;

/**
 * Cancels the jobs of one submission that are still open and that the actor may manage, each by
 * {@link cancelStaging}'s rules (nothing bought is bought again; a job already paid for says so in
 * its attempts). Jobs that already finished are left as they are.
 *
 * @returns the jobs it asked to cancel, as they are after the call (none when nothing was open).
 */
export async function cancelSubmission(deps: StagingActionDeps, input: { actor: Actor; submissionId: string }): Promise<StagingJobDto[]> {
  const open = await deps.db.$queryRaw<{ id: string }[]>`
    SELECT j."id" FROM "ai_jobs" j JOIN "properties" p ON p."id" = j."propertyId"
    WHERE j."submissionId" = ${input.submissionId} AND j."type" = 'ROOM_STAGING'
      AND j."status" IN ('PENDING', 'PROCESSING', 'RETRYING') AND ${accessiblePropertySql(input.actor, 'p')}
    ORDER BY j."createdAt", j."id" LIMIT ${SUBMISSION_CANCEL_LIMIT}`;
  const canceled: StagingJobDto[] = [];
  // One after another: each is a conditional update and a queue call, and a batch is small.
  for (const { id } of open) canceled.push(await cancelStaging(deps, { actor: input.actor, aiJobId: id }));
  return canceled;
}
