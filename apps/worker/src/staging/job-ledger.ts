/**
 * Reads and conditional writes of the staging ledger (ai_jobs, ai_room_staging_jobs,
 * ai_provider_attempts). Every write names the status it expects to leave, so a stale run or a
 * concurrent cancel makes it match nothing instead of applying a move the state tables forbid;
 * callers look at the returned count and re-read.
 */
import type { Db, Prisma } from '@staging/db/client';
import type { AttemptStatus } from '@staging/domain/attempt-states';
import type { JobStatus } from '@staging/domain/staging-states';

export type Tx = Prisma.TransactionClient;

const attemptSelect = {
  id: true,
  attemptNumber: true,
  status: true,
  providerPredictionId: true,
  providerStatus: true,
  errorCode: true,
  inputFingerprint: true,
  outputObjectKey: true,
  createdAt: true,
  creatingAt: true,
  predictionCreatedAt: true,
  providerCompletedAt: true,
  endedAt: true,
} as const;

export interface AttemptRow {
  id: string;
  attemptNumber: number;
  status: AttemptStatus;
  providerPredictionId: string | null;
  providerStatus: string | null;
  errorCode: string | null;
  /** Fingerprint of the input of the latest create call (prediction-recovery.ts). */
  inputFingerprint: string | null;
  outputObjectKey: string | null;
  createdAt: Date;
  creatingAt: Date | null;
  predictionCreatedAt: Date | null;
  providerCompletedAt: Date | null;
  endedAt: Date | null;
}

export interface StagingJobRow {
  id: string;
  status: JobStatus;
  phase: string | null;
  createdAt: Date;
  startedAt: Date | null;
  requestedByUserId: string | null;
  staging: {
    propertyId: string;
    originalImageId: string | null;
    requestedByUserId: string | null;
    canonicalRoomType: string;
    canonicalStyle: string;
    providerModel: string;
    promptVersion: string;
    prompt: string;
    quality: string;
    aspectRatio: string;
    outputFormat: string;
    outputCompression: number;
    original: { id: string; objectKey: string } | null;
  } | null;
  attempts: AttemptRow[];
}

export async function loadStagingJob(db: Db, jobId: string): Promise<StagingJobRow | null> {
  return db.aiJob.findUnique({
    where: { id: jobId },
    select: {
      id: true,
      status: true,
      phase: true,
      createdAt: true,
      startedAt: true,
      requestedByUserId: true,
      staging: {
        select: {
          propertyId: true,
          originalImageId: true,
          requestedByUserId: true,
          canonicalRoomType: true,
          canonicalStyle: true,
          providerModel: true,
          promptVersion: true,
          prompt: true,
          quality: true,
          aspectRatio: true,
          outputFormat: true,
          outputCompression: true,
          original: { select: { id: true, objectKey: true } },
        },
      },
      attempts: { select: attemptSelect, orderBy: { attemptNumber: 'asc' } },
    },
  });
}

/** Moves the job between statuses (or keeps it) when it is still in one of `from`. */
export async function updateJobIf(
  db: Db | Tx,
  jobId: string,
  from: readonly JobStatus[],
  data: Prisma.AiJobUpdateManyMutationInput,
): Promise<boolean> {
  const now = new Date();
  const { count } = await db.aiJob.updateMany({
    where: { id: jobId, status: { in: [...from] } },
    data: { heartbeatAt: now, updatedAt: now, ...data },
  });
  return count === 1;
}

export async function updateAttemptIf(
  db: Db | Tx,
  attemptId: string,
  from: readonly AttemptStatus[],
  data: Prisma.AiProviderAttemptUpdateManyMutationInput,
  extraWhere: Prisma.AiProviderAttemptWhereInput = {},
): Promise<boolean> {
  const { count } = await db.aiProviderAttempt.updateMany({
    where: { id: attemptId, status: { in: [...from] }, ...extraWhere },
    data,
  });
  return count === 1;
}

/** Inserts attempt `attemptNumber` as RESERVED unless it exists (the unique index decides). */
export async function insertReservedAttempt(db: Db | Tx, jobId: string, attemptNumber: 1 | 2): Promise<void> {
  await db.aiProviderAttempt.createMany({
    data: [{ aiJobId: jobId, attemptNumber, status: 'RESERVED' }],
    skipDuplicates: true,
  });
}

/**
 * Every create call of the last `sinceMs` (all workers), with the latest time its purchase can
 * have happened: when the prediction ID was persisted, else when the attempt ended, else (still
 * CREATING) the most a request can take. Used to rebuild a paid-start log Redis lost.
 */
export async function loadRecordedStarts(
  db: Db,
  sinceMs: number,
  inFlightHoldMs: number,
): Promise<{ member: string; scoreMs: number }[]> {
  const since = new Date(Date.now() - sinceMs);
  const rows = await db.aiProviderAttempt.findMany({
    where: { OR: [{ creatingAt: { gte: since } }, { predictionCreatedAt: { gte: since } }] },
    select: { id: true, creatingAt: true, predictionCreatedAt: true, endedAt: true },
  });
  return rows.map((row) => ({
    member: `ledger:${row.id}`,
    scoreMs: (
      row.predictionCreatedAt ??
      row.endedAt ??
      new Date((row.creatingAt ?? since).getTime() + inFlightHoldMs)
    ).getTime(),
  }));
}

/** Marks the job alive; nonterminal jobs only, so a finished job keeps its last heartbeat. */
export async function touchHeartbeat(db: Db, jobId: string): Promise<void> {
  await db.aiJob.updateMany({
    where: { id: jobId, status: { in: ['PENDING', 'PROCESSING', 'RETRYING', 'CANCEL_REQUESTED'] } },
    data: { heartbeatAt: new Date() },
  });
}

/** Thrown inside a transaction to roll it back when a conditional update matched nothing. */
export class StaleStateError extends Error {
  override readonly name = 'StaleStateError';
}

/**
 * Runs `fn` in a transaction and turns a StaleStateError into `false` (rolled back, nothing
 * changed), so callers can write "apply all of these moves or none".
 */
export async function transactIfCurrent(db: Db, fn: (tx: Tx) => Promise<void>): Promise<boolean> {
  try {
    await db.$transaction(fn);
    return true;
  } catch (error) {
    if (error instanceof StaleStateError) return false;
    throw error;
  }
}

/** Throws StaleStateError when a conditional update in a transaction matched nothing. */
export function requireChanged(changed: boolean, what: string): void {
  if (!changed) throw new StaleStateError(`${what} changed concurrently`);
}
