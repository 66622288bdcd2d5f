import { Prisma } from '@staging/db/client';
import type { Db } from '@staging/db/client';
import { JOB_STATUSES, jobStatusesLeadingTo, nextJobStatus } from '@staging/domain/staging-states';
import type { JobStatus } from '@staging/domain/staging-states';
import { sqlStatusList } from './status-sql';

// Read off the job table so SQL and table cannot disagree: a waiting job is canceled outright, one
// that may hold a prediction asks the worker to cancel it at the provider. A job whose CANCEL is a
// self-move (already CANCEL_REQUESTED) is left as it is: its timestamps are the first request's.
const CANCEL_MOVES = JOB_STATUSES.flatMap((from) => {
  const to = nextJobStatus(from, 'CANCEL');
  return to === null || to === from ? [] : [{ from, to }];
});
const TARGET_BY_OLD_STATUS = Prisma.raw(CANCEL_MOVES.map(({ from, to }) => `WHEN '${from}' THEN '${to}'`).join(' '));
const CANCELED_OUTRIGHT = sqlStatusList(jobStatusesLeadingTo('CANCEL', 'CANCELED'));
const CANCELABLE = sqlStatusList(CANCEL_MOVES.map(({ from }) => from));

/**
 * Applies CANCEL to staging job `jobId` in one conditional statement: the locked read gives the
 * status the update really starts from, so a worker moving the job at the same moment either is
 * seen or makes this match nothing. `cancelRequestedAt` keeps the first request's instant;
 * `canceledAt` is written when the job ends CANCELED here.
 *
 * @returns the move made, or undefined when the job was in no status CANCEL moves.
 */
export async function requestJobCancel(db: Db, jobId: string, now: Date): Promise<{ fromStatus: JobStatus; status: JobStatus } | undefined> {
  const [moved] = await db.$queryRaw<{ fromStatus: JobStatus; status: JobStatus }[]>`
    WITH "old" AS (
      SELECT "id", "status" FROM "ai_jobs" WHERE "id" = ${jobId} AND "type" = 'ROOM_STAGING' FOR UPDATE
    )
    UPDATE "ai_jobs" AS j SET
      "status" = (CASE "old"."status" ${TARGET_BY_OLD_STATUS} END)::"AiJobStatus",
      "cancelRequestedAt" = COALESCE(j."cancelRequestedAt", ${now}),
      "canceledAt" = CASE WHEN "old"."status" IN (${CANCELED_OUTRIGHT}) THEN ${now} ELSE j."canceledAt" END,
      "updatedAt" = ${now}
    FROM "old"
    WHERE j."id" = "old"."id" AND "old"."status" IN (${CANCELABLE})
    RETURNING "old"."status"::text AS "fromStatus", j."status"::text AS "status"`;
  return moved;
}
