import { z } from 'zod';
import { MAX_LIST_LIMIT } from '@staging/contracts/staging';
import type { StagingJobDto, StagingJobPage } from '@staging/contracts/staging';
import { Prisma } from '@staging/db/client';
import type { Db } from '@staging/db/client';
import { AppError, isAppError } from '@staging/domain/errors';
import { fieldIssuesOf } from '@staging/domain/field-issues';
import { JOB_STATUSES, isTerminalJobStatus } from '@staging/domain/staging-states';
import type { JobStatus } from '@staging/domain/staging-states';
import { attemptPurchase } from '@staging/domain/job-outcome';
import { WAITING_FOR_START_SLOT } from '@staging/domain/start-line';
import type { PlaceInLine } from '@staging/domain/start-line';
import { accessiblePropertySql, assertCanManageProperty, newestOfVisiblePropertiesSql } from '../access/property-access';
import type { Actor } from '../access/property-access';
import type { JobReadDeps } from './staging-deps';
import { decodeCreatedAtCursor, encodeCreatedAtCursor } from '../keyset-cursor';
import { placesInLineOf } from './start-line-summary';

/** Input of {@link listStagingJobs} besides the actor. */
export const ZListStagingJobsInput = z.object({
  propertyId: z.string().min(1).max(100).optional(),
  submissionId: z.string().min(1).max(100).optional(),
  statuses: z.array(z.enum(JOB_STATUSES)).min(1).max(JOB_STATUSES.length).optional(),
  limit: z.number().int().min(1).max(MAX_LIST_LIMIT),
  cursor: z.string().max(200).optional(),
});

export const JOB_NOT_FOUND = 'Staging job not found';

const jobSelect = {
  id: true,
  propertyId: true,
  status: true,
  phase: true,
  submissionId: true,
  errorCode: true,
  createdAt: true,
  updatedAt: true,
  startedAt: true,
  completedAt: true,
  cancelRequestedAt: true,
  canceledAt: true,
  staging: { select: { propertyId: true, originalImageId: true, resultImageId: true, canonicalStyle: true, canonicalRoomType: true } },
  attempts: {
    select: { attemptNumber: true, status: true, providerStatus: true, errorCode: true, costMicrousd: true, providerPredictionId: true },
    orderBy: { attemptNumber: 'asc' },
  },
} as const satisfies Prisma.AiJobSelect;

type JobRow = Prisma.AiJobGetPayload<{ select: typeof jobSelect }>;

/** A job row with its property: the job's own, or else its staging row's. */
type PropertyJobRow = JobRow & { propertyId: string };

function withProperty(row: JobRow): PropertyJobRow | undefined {
  const propertyId = row.propertyId ?? row.staging?.propertyId;
  return propertyId === undefined || propertyId === null ? undefined : { ...row, propertyId };
}

/**
 * The staging job `aiJobId` if the actor may manage its property.
 *
 * @throws AppError NOT_FOUND when the job does not exist, is not a staging job, or belongs to a
 *   property the actor cannot manage (one answer for all three, docs/system.md 5.4).
 */
export async function getStagingJob(deps: JobReadDeps, input: { actor: Actor; aiJobId: string }): Promise<StagingJobDto> {
  const row = await loadAccessibleJob(deps.db, input.actor, input.aiJobId);
  const places = await placesInLineOf(deps, waitingIds([row]));
  return toStagingJobDto(row, deps.clock.now(), places.get(row.id));
}

/** The rows that may stand in the start line; the line itself says whether they still do. */
function waitingIds(rows: readonly JobRow[]): string[] {
  return rows.filter((row) => row.phase === WAITING_FOR_START_SLOT && !isTerminalJobStatus(row.status)).map((row) => row.id);
}

/**
 * Staging jobs of the properties the actor may manage, newest first, optionally of one property
 * and/or some statuses. Keyset pagination on (createdAt, id), so pages stay stable while new jobs
 * arrive.
 *
 * @throws AppError BAD_REQUEST for invalid input or cursor, NOT_FOUND for a property the actor
 *   cannot manage.
 */
export async function listStagingJobs(
  deps: JobReadDeps,
  input: { actor: Actor; propertyId?: string; submissionId?: string; statuses?: JobStatus[]; limit: number; cursor?: string },
): Promise<StagingJobPage> {
  const { actor, ...rest } = input;
  const parsed = ZListStagingJobsInput.safeParse(rest);
  if (!parsed.success) {
    throw new AppError('BAD_REQUEST', 'Invalid staging job query.', {
      issues: fieldIssuesOf(parsed.error.issues),
    });
  }
  const { propertyId, submissionId, statuses, limit, cursor } = parsed.data;
  if (propertyId !== undefined) await assertCanManageProperty(deps.db, actor, propertyId);
  const after = cursor === undefined ? null : decodeCreatedAtCursor(cursor);

  const filters: Prisma.Sql[] = [Prisma.sql`r."type" = 'ROOM_STAGING'`];
  if (statuses !== undefined) filters.push(Prisma.sql`r."status"::text IN (${Prisma.join(statuses)})`);
  if (after !== null) filters.push(Prisma.sql`(r."createdAt", r."id") < (${after.createdAt}, ${after.id})`);
  // A submission holds at most one page of jobs, found by its own index; the caller sees those
  // of its properties only.
  if (submissionId !== undefined) {
    filters.push(Prisma.sql`r."submissionId" = ${submissionId}`);
    filters.push(Prisma.sql`EXISTS (SELECT 1 FROM "properties" p WHERE p."id" = r."propertyId" AND ${accessiblePropertySql(actor, 'p')})`);
  }
  const ids = await deps.db.$queryRaw<{ id: string }[]>(
    propertyId === undefined && submissionId === undefined
      ? await newestOfVisiblePropertiesSql(deps.db, actor, { table: Prisma.sql`"ai_jobs"`, filters, take: limit + 1 })
      : Prisma.sql`SELECT r."id" FROM "ai_jobs" r WHERE ${propertyId === undefined ? Prisma.sql`TRUE` : Prisma.sql`r."propertyId" = ${propertyId}`}
          AND ${Prisma.join(filters, ' AND ')}
          ORDER BY r."createdAt" DESC, r."id" DESC LIMIT ${limit + 1}`,
  );

  const pageIds = ids.slice(0, limit).map((r) => r.id);
  const rows = await deps.db.aiJob.findMany({ where: { id: { in: pageIds } }, select: jobSelect });
  const byId = new Map(rows.map((row) => [row.id, row]));
  const now = deps.clock.now();
  const places = await placesInLineOf(deps, waitingIds(rows));
  const items = pageIds.flatMap((id) => {
    const row = byId.get(id);
    const job = row === undefined ? undefined : withProperty(row);
    return job === undefined ? [] : [toStagingJobDto(job, now, places.get(id))];
  });
  const lastId = pageIds.at(-1);
  const last = lastId === undefined ? undefined : byId.get(lastId);
  return { items, nextCursor: ids.length > limit && last !== undefined ? encodeCreatedAtCursor(last) : null };
}

/** Loads a staging job for the actor or throws the uniform NOT_FOUND. */
export async function loadAccessibleJob(db: Db, actor: Actor, aiJobId: string): Promise<PropertyJobRow> {
  const row = await db.aiJob.findFirst({ where: { id: aiJobId, type: 'ROOM_STAGING' }, select: jobSelect });
  const job = row === null ? undefined : withProperty(row);
  if (job === undefined) throw new AppError('NOT_FOUND', JOB_NOT_FOUND);
  try {
    await assertCanManageProperty(db, actor, job.propertyId);
  } catch (error) {
    if (isAppError(error) && error.code === 'NOT_FOUND') throw new AppError('NOT_FOUND', JOB_NOT_FOUND);
    throw error;
  }
  return job;
}

/** Maps a job row to its DTO; `now` ends the elapsed time of an open job. */
export function toStagingJobDto(row: PropertyJobRow, now: Date, place?: PlaceInLine): StagingJobDto {
  const { status } = row;
  // CANCELED jobs carry canceledAt rather than completedAt (the deletion trigger sets only that).
  const finishedAt = isTerminalJobStatus(status) ? (row.completedAt ?? row.canceledAt ?? row.updatedAt) : null;
  const costs = row.attempts.map((a) => a.costMicrousd).filter((c): c is number => c !== null);
  return {
    aiJobId: row.id,
    propertyId: row.propertyId,
    status,
    phase: row.phase,
    submissionId: row.submissionId,
    errorCode: row.errorCode,
    originalImageId: row.staging?.originalImageId ?? null,
    resultImageId: row.staging?.resultImageId ?? null,
    canonicalStyle: row.staging?.canonicalStyle ?? null,
    roomType: row.staging?.canonicalRoomType ?? null,
    attempts: row.attempts.map((a) => ({
      attemptNumber: a.attemptNumber,
      status: a.status,
      providerStatus: a.providerStatus,
      errorCode: a.errorCode,
      costMicrousd: a.costMicrousd,
      purchase: attemptPurchase({ status: a.status, hasPrediction: a.providerPredictionId !== null, errorCode: a.errorCode }),
    })),
    timings: {
      createdAt: row.createdAt.toISOString(),
      startedAt: row.startedAt?.toISOString() ?? null,
      completedAt: finishedAt?.toISOString() ?? null,
      cancelRequestedAt: row.cancelRequestedAt?.toISOString() ?? null,
      canceledAt: row.canceledAt?.toISOString() ?? null,
      elapsedMs: Math.max(0, (finishedAt ?? now).getTime() - row.createdAt.getTime()),
    },
    costEstimateMicrousd: costs.length === 0 ? null : costs.reduce((sum, c) => sum + c, 0),
    placeInLine: place === undefined ? null : { position: place.position, expectedStartAt: place.expectedStartAt.toISOString() },
  };
}
