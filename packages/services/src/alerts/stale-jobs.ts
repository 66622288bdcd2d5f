/**
 * Stale-job alerts (docs/system.md 8): PENDING older than 5 minutes; PROCESSING or CANCEL_REQUESTED with
 * a heartbeat stale over 2 minutes; RETRYING with a heartbeat stale over 5 minutes; deletion-outbox
 * rows in FAILED. The query takes the instant as an argument, so tests stand at exact thresholds.
 */
import type { Redis } from 'ioredis';
import type { Db } from '@staging/db/client';
import type { Alert } from '@staging/platform/error-tracker';
import type { Logger } from '@staging/platform/logger';
import { DAILY_PURCHASE_CAP_REACHED } from '@staging/domain/daily-purchase-cap';
import { NONTERMINAL_JOB_STATUSES } from '@staging/domain/staging-states';
import { sqlStatusList } from '../staging/ledger/status-sql';

export const STALE_THRESHOLDS_MS = {
  pending: 5 * 60_000,
  heartbeat: 2 * 60_000,
  retrying: 5 * 60_000,
} as const;

export type StaleKind = 'pending' | 'heartbeat' | 'retrying' | 'outbox_failed';

/** The errorCode tag of each alert kind: stable, searchable in the error tracker. */
export const STALE_ALERT_CODES: Record<StaleKind, string> = {
  pending: 'STALE_JOB_PENDING',
  heartbeat: 'STALE_JOB_HEARTBEAT',
  retrying: 'STALE_JOB_RETRYING',
  outbox_failed: 'DELETION_OUTBOX_FAILED',
};

export interface StaleFinding {
  kind: StaleKind;
  /** ai_jobs.id, or storage_deletion_outbox.id for outbox_failed. */
  id: string;
  jobType: string | null;
  status: string;
  /** The job's own errorCode (RETRYING) or the outbox row's lastError kind; null when none. */
  detailCode: string | null;
  /** The instant the threshold is measured from (createdAt or last heartbeat). */
  since: Date;
  ageMs: number;
}

export interface FindStaleOptions {
  now: Date;
  /**
   * False while the worker's kill switch is off: jobs parked as PROVIDER_DISABLED are waiting on
   * purpose then (docs/system.md 1.7) and are not reported.
   */
  stagingEnabled: boolean;
  limit?: number;
}

interface JobRow {
  id: string;
  type: string;
  status: string;
  errorCode: string | null;
  since: Date;
}

/**
 * Every stale job and FAILED outbox row at `now`. A job is stale strictly after its threshold
 * ("older than", "stale over"). v1 history rows are skipped: ROOM_STAGING rows without an
 * ai_room_staging_jobs row and DESCRIPTION rows without a `{ propertyId }` payload belong to no
 * running code (docs/decisions/staging.md "Legacy v1 jobs").
 */
export async function findStaleJobs(db: Db, options: FindStaleOptions): Promise<StaleFinding[]> {
  const now = options.now;
  const limit = options.limit ?? 500;
  const pendingBefore = new Date(now.getTime() - STALE_THRESHOLDS_MS.pending);
  const heartbeatBefore = new Date(now.getTime() - STALE_THRESHOLDS_MS.heartbeat);
  const retryingBefore = new Date(now.getTime() - STALE_THRESHOLDS_MS.retrying);
  const includeParked = options.stagingEnabled;
  const jobs = await db.$queryRaw<JobRow[]>`
    SELECT j."id", j."type"::text AS "type", j."status"::text AS "status", j."errorCode",
           CASE WHEN j."status" = 'PENDING' THEN j."createdAt"
                ELSE COALESCE(j."heartbeatAt", j."startedAt", j."updatedAt") END AS "since"
    FROM "ai_jobs" j
    WHERE j."status" IN (${sqlStatusList(NONTERMINAL_JOB_STATUSES)})
      AND ((j."type" = 'ROOM_STAGING' AND EXISTS (SELECT 1 FROM "ai_room_staging_jobs" s WHERE s."aiJobId" = j."id"))
        OR (j."type" = 'DESCRIPTION' AND j."payload" ? 'propertyId'))
      AND (${includeParked} OR j."phase" IS DISTINCT FROM 'PROVIDER_DISABLED')
      AND j."phase" IS DISTINCT FROM ${DAILY_PURCHASE_CAP_REACHED}
      AND (
        (j."status" = 'PENDING' AND j."createdAt" < ${pendingBefore})
        OR (j."status" IN ('PROCESSING', 'CANCEL_REQUESTED') AND COALESCE(j."heartbeatAt", j."startedAt", j."updatedAt") < ${heartbeatBefore})
        OR (j."status" = 'RETRYING' AND COALESCE(j."heartbeatAt", j."startedAt", j."updatedAt") < ${retryingBefore})
      )
    ORDER BY "since" ASC
    LIMIT ${limit}`;
  const outbox = await db.storageDeletionOutbox.findMany({
    where: { status: 'FAILED' },
    orderBy: { createdAt: 'asc' },
    take: limit,
    select: { id: true, createdAt: true, processedAt: true, attempts: true },
  });
  const findings: StaleFinding[] = jobs.map((job) => ({
    kind: job.status === 'PENDING' ? 'pending' : job.status === 'RETRYING' ? 'retrying' : 'heartbeat',
    id: job.id,
    jobType: job.type,
    status: job.status,
    detailCode: job.errorCode,
    since: job.since,
    ageMs: now.getTime() - job.since.getTime(),
  }));
  for (const row of outbox) {
    findings.push({
      kind: 'outbox_failed',
      id: row.id,
      jobType: null,
      status: 'FAILED',
      detailCode: null,
      since: row.createdAt,
      ageMs: now.getTime() - row.createdAt.getTime(),
    });
  }
  return findings;
}

/** Remembers which findings were alerted; `claim` is true for the first caller only. */
export interface AlertDedupe {
  claim(key: string): Promise<boolean>;
}

/**
 * Dedupe shared by every worker replica: SET NX with a TTL, so one replica alerts and an
 * unresolved condition is reminded once per `ttlMs` (default a day).
 */
export function createRedisAlertDedupe(
  redis: Redis,
  options: { queueSuffix: string; ttlMs?: number },
): AlertDedupe {
  const ttlMs = options.ttlMs ?? 24 * 3600_000;
  return {
    async claim(key) {
      return (
        (await redis.set(`staging:alert-dedupe${options.queueSuffix}:${key}`, '1', 'PX', ttlMs, 'NX')) ===
        'OK'
      );
    },
  };
}

/** Per-process dedupe for tests and single-process tools. */
export function createMemoryAlertDedupe(): AlertDedupe {
  const seen = new Set<string>();
  return {
    async claim(key) {
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    },
  };
}

/**
 * The dedupe key of a finding: one alert per staleness episode. A job whose heartbeat moves and
 * then stalls again is a new episode (its `since` changed) and alerts again.
 */
export function staleDedupeKey(finding: StaleFinding): string {
  return `${finding.kind}:${finding.id}:${finding.since.getTime()}`;
}

export interface StaleAlertPassDeps {
  db: Db;
  dedupe: AlertDedupe;
  captureAlert: (alert: Alert) => void;
  logger: Logger;
  now: () => Date;
  stagingEnabled: boolean;
}

const MESSAGES: Record<StaleKind, string> = {
  pending: 'AI job has been PENDING for more than 5 minutes',
  heartbeat: 'AI job heartbeat is stale for more than 2 minutes (PROCESSING or CANCEL_REQUESTED)',
  retrying: 'AI job heartbeat is stale for more than 5 minutes while RETRYING',
  outbox_failed: 'Storage deletion outbox row is FAILED and needs investigation',
};

/** One pass: finds stale work and raises each finding once. Returns the alerts raised. */
export async function runStaleJobAlertPass(deps: StaleAlertPassDeps): Promise<StaleFinding[]> {
  const findings = await findStaleJobs(deps.db, { now: deps.now(), stagingEnabled: deps.stagingEnabled });
  const raised: StaleFinding[] = [];
  for (const finding of findings) {
    if (!(await deps.dedupe.claim(staleDedupeKey(finding)))) continue;
    raised.push(finding);
    const isOutbox = finding.kind === 'outbox_failed';
    deps.captureAlert({
      message: MESSAGES[finding.kind],
      level: isOutbox ? 'error' : 'warning',
      tags: {
        errorCode: STALE_ALERT_CODES[finding.kind],
        alertKind: finding.kind,
        ...(isOutbox
          ? { outboxId: finding.id }
          : { jobId: finding.id, jobType: finding.jobType ?? undefined, jobStatus: finding.status }),
        ...(finding.detailCode === null ? {} : { jobErrorCode: finding.detailCode }),
      },
      extra: { since: finding.since.toISOString(), ageSeconds: Math.floor(finding.ageMs / 1000) },
    });
  }
  if (findings.length > 0)
    deps.logger.debug(
      { event: 'stale_jobs.pass', found: findings.length, raised: raised.length },
      'stale job pass',
    );
  return raised;
}
