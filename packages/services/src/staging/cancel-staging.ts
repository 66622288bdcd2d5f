import { Prisma } from '@staging/db/client';
import { jobStatusesLeadingTo } from '@staging/domain/staging-states';
import type { JobStatus } from '@staging/domain/staging-states';
import type { Actor } from '../access/property-access';
import { loadAccessibleJob, toStagingJobDto } from './get-jobs';
import type { StagingJobDto } from './get-jobs';
import type { StagingActionDeps } from './staging-deps';
import { removeWaitingStagingJob, wakeStagingJob, withQueueTimeout } from './staging-queue';

// Built from the job state table so SQL and the table cannot disagree: a waiting job is canceled
// outright, one that may hold a prediction asks the worker to cancel it at the provider. A job
// already CANCEL_REQUESTED is left as it is (its timestamps are the first request's).
const CANCEL_NOW = jobStatusesLeadingTo('CANCEL', 'CANCELED');
const CANCEL_VIA_WORKER = jobStatusesLeadingTo('CANCEL', 'CANCEL_REQUESTED').filter((s) => s !== 'CANCEL_REQUESTED');

function statusList(statuses: readonly JobStatus[]): Prisma.Sql {
  return Prisma.raw(statuses.map((s) => `'${s}'`).join(', '));
}

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

  // The locked read gives the status the update really starts from, for the event.
  const [moved] = await db.$queryRaw<{ fromStatus: JobStatus; status: JobStatus }[]>`
    WITH "old" AS (
      SELECT "id", "status" FROM "ai_jobs" WHERE "id" = ${before.id} AND "type" = 'ROOM_STAGING' FOR UPDATE
    )
    UPDATE "ai_jobs" AS j SET
      "status" = (CASE WHEN "old"."status" IN (${statusList(CANCEL_NOW)}) THEN 'CANCELED' ELSE 'CANCEL_REQUESTED' END)::"AiJobStatus",
      "cancelRequestedAt" = COALESCE(j."cancelRequestedAt", ${now}),
      "canceledAt" = CASE WHEN "old"."status" IN (${statusList(CANCEL_NOW)}) THEN ${now} ELSE j."canceledAt" END,
      "updatedAt" = ${now}
    FROM "old"
    WHERE j."id" = "old"."id" AND "old"."status" IN (${statusList([...CANCEL_NOW, ...CANCEL_VIA_WORKER])})
    RETURNING "old"."status"::text AS "fromStatus", j."status"::text AS "status"`;

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
