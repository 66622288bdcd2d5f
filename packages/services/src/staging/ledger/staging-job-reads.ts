/**
 * Reads of the staging ledger (ai_jobs, ai_room_staging_jobs, ai_provider_attempts) the worker's
 * steps decide on.
 */
import { Prisma } from '@staging/db/client';
import type { Db } from '@staging/db/client';
import type { AttemptStatus } from '@staging/domain/attempt-states';
import type { JobStatus } from '@staging/domain/staging-states';

/** Runs one read statement on a connection of the caller's choosing. */
interface LedgerReader {
  read<Row>(statement: Prisma.Sql): Promise<Row[]>;
}

export interface AttemptRow {
  id: string;
  attemptNumber: number;
  status: AttemptStatus;
  providerPredictionId: string | null;
  providerStatus: string | null;
  errorCode: string | null;
  /** Fingerprint of the input of the latest create call (prediction-recovery.ts). */
  inputFingerprint: string | null;
  /** The callback URL of the latest create call, as sent (null: marked CREATING before it was kept). */
  webhookUrl: string | null;
  /** The Cancel-After of the latest create call, as sent (null: marked CREATING before it was kept). */
  cancelAfterSeconds: number | null;
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
  heartbeatAt: Date | null;
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

/** A job whose staging request row is there: every step after the first read works on one. */
export type StagedJobRow = StagingJobRow & { staging: NonNullable<StagingJobRow['staging']> };

export function hasStaging(job: StagingJobRow): job is StagedJobRow {
  return job.staging !== null;
}

/**
 * The prediction of an attempt past CREATING: it moved on with its prediction ID, so a missing one
 * is a broken ledger, not a state to act on.
 */
export function predictionIdOf(attempt: Pick<AttemptRow, 'id' | 'status' | 'providerPredictionId'>): string {
  if (attempt.providerPredictionId === null) {
    throw new Error(`attempt ${attempt.id} is ${attempt.status} without a provider prediction ID`);
  }
  return attempt.providerPredictionId;
}

type AttemptDate = 'createdAt' | 'creatingAt' | 'predictionCreatedAt' | 'providerCompletedAt' | 'endedAt';
/** An attempt as json_build_object gives it: timestamps as ISO text. */
type LoadedAttempt = Omit<AttemptRow, AttemptDate> & { createdAt: string } & Record<Exclude<AttemptDate, 'createdAt'>, string | null>;

const dateOrNull = (value: string | null) => (value === null ? null : new Date(value));

/**
 * The job, its staging row with the original and its attempts in attempt order: one statement on
 * the reader's connection (the worker passes its job lock's: the step loop reads this before every
 * step, so it is the hottest query of a job, and it needs no transaction of its own).
 */
export async function loadStagingJob(reader: LedgerReader, jobId: string): Promise<StagingJobRow | null> {
  const rows = await reader.read<Omit<StagingJobRow, 'attempts'> & { attempts: LoadedAttempt[] }>(Prisma.sql`
    SELECT j.id, j.status::text AS status, j.phase, j."createdAt", j."startedAt", j."heartbeatAt", j."requestedByUserId",
      CASE WHEN s."aiJobId" IS NULL THEN NULL ELSE json_build_object(
        'propertyId', s."propertyId", 'originalImageId', s."originalImageId", 'requestedByUserId', s."requestedByUserId",
        'canonicalRoomType', s."canonicalRoomType", 'canonicalStyle', s."canonicalStyle", 'providerModel', s."providerModel",
        'promptVersion', s."promptVersion", 'prompt', s.prompt, 'quality', s.quality, 'aspectRatio', s."aspectRatio",
        'outputFormat', s."outputFormat", 'outputCompression', s."outputCompression",
        'original', CASE WHEN o.id IS NULL THEN NULL ELSE json_build_object('id', o.id, 'objectKey', o."objectKey") END
      ) END AS staging,
      COALESCE((
        SELECT json_agg(json_build_object(
          'id', a.id, 'attemptNumber', a."attemptNumber", 'status', a.status, 'providerPredictionId', a."providerPredictionId",
          'providerStatus', a."providerStatus", 'errorCode', a."errorCode", 'inputFingerprint', a."inputFingerprint",
          'webhookUrl', a."webhookUrl", 'cancelAfterSeconds', a."cancelAfterSeconds", 'outputObjectKey', a."outputObjectKey", 'createdAt', a."createdAt", 'creatingAt', a."creatingAt",
          'predictionCreatedAt', a."predictionCreatedAt", 'providerCompletedAt', a."providerCompletedAt", 'endedAt', a."endedAt"
        ) ORDER BY a."attemptNumber")
        FROM ai_provider_attempts a WHERE a."aiJobId" = j.id
      ), '[]') AS attempts
    FROM ai_jobs j
    LEFT JOIN ai_room_staging_jobs s ON s."aiJobId" = j.id
    LEFT JOIN property_images o ON o.id = s."originalImageId"
    WHERE j.id = ${jobId}`);
  const row = rows[0];
  if (row === undefined) return null;
  const attempts = row.attempts.map((attempt) => ({
    ...attempt,
    createdAt: new Date(attempt.createdAt),
    creatingAt: dateOrNull(attempt.creatingAt),
    predictionCreatedAt: dateOrNull(attempt.predictionCreatedAt),
    providerCompletedAt: dateOrNull(attempt.providerCompletedAt),
    endedAt: dateOrNull(attempt.endedAt),
  }));
  return { ...row, attempts };
}

/** True when an attempt other than `attemptId` holds prediction `predictionId`. */
export async function isPredictionHeldByOtherAttempt(db: Db, predictionId: string, attemptId: string): Promise<boolean> {
  return (await db.aiProviderAttempt.count({ where: { providerPredictionId: predictionId, id: { not: attemptId } } })) > 0;
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
