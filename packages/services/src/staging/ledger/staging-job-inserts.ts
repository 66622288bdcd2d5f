import { randomUUID } from 'node:crypto';
import type { DbTransaction, Prisma } from '@staging/db/client';
import { NONTERMINAL_JOB_STATUSES } from '@staging/domain/staging-states';
import type { JobStatus } from '@staging/domain/staging-states';
import { sqlStatusList } from './status-sql';

// The SQL twin of the ai_jobs_active_staging_dedupe_uidx predicate; ON CONFLICT must repeat it
// for Postgres to infer that partial index as the arbiter.
const NONTERMINAL_SQL = sqlStatusList(NONTERMINAL_JOB_STATUSES);

/** The staging row of a new job, which {@link insertStagingJob} ties to the job it creates. */
type NewStagingRow = Omit<Prisma.AiRoomStagingJobUncheckedCreateInput, 'aiJobId' | 'createdAt'>;

/**
 * Creates a PENDING staging job (phase QUEUED) with its staging row, unless the dedupe index
 * already holds a nonterminal job for `dedupeKey`: then nothing is written and the answer is null.
 */
export async function insertStagingJob(
  tx: DbTransaction,
  job: { dedupeKey: string; propertyId: string; requestedByUserId: string; submissionId: string; now: Date },
  staging: NewStagingRow,
): Promise<string | null> {
  const aiJobId = randomUUID();
  const inserted = await tx.$queryRaw<{ id: string }[]>`
    INSERT INTO "ai_jobs" ("id", "type", "status", "phase", "dedupeKey", "propertyId", "requestedByUserId", "submissionId", "createdAt", "updatedAt")
    VALUES (${aiJobId}, 'ROOM_STAGING', 'PENDING', 'QUEUED', ${job.dedupeKey}, ${job.propertyId}, ${job.requestedByUserId}, ${job.submissionId}, ${job.now}, ${job.now})
    ON CONFLICT ("dedupeKey") WHERE "type" = 'ROOM_STAGING' AND "status" IN (${NONTERMINAL_SQL})
    DO NOTHING
    RETURNING "id"`;
  if (inserted.length === 0) return null;
  await tx.aiRoomStagingJob.create({ data: { ...staging, aiJobId, createdAt: job.now }, select: { aiJobId: true } });
  return aiJobId;
}

/** The nonterminal staging job holding `dedupeKey`, if any (read committed: a committed holder is seen). */
export async function findOpenStagingJob(tx: DbTransaction, dedupeKey: string): Promise<{ id: string; status: JobStatus } | undefined> {
  const [existing] = await tx.$queryRaw<{ id: string; status: JobStatus }[]>`
    SELECT "id", "status"::text AS "status" FROM "ai_jobs"
    WHERE "dedupeKey" = ${dedupeKey} AND "type" = 'ROOM_STAGING' AND "status" IN (${NONTERMINAL_SQL})
    LIMIT 1`;
  return existing;
}
