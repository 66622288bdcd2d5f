import type { Prisma } from '@staging/db/client';
import { createOriginalImage, createProperty, createStagingJob, createUser } from '@staging/db/testing/factories';
import type { Alert } from '@staging/platform/error-tracker';
import { memoryLogger, uniqueQueueSuffix, useStagingTestContext } from '../staging/testing/staging-test-kit';
import {
  createMemoryAlertDedupe,
  createRedisAlertDedupe,
  findStaleJobs,
  runStaleJobAlertPass,
  STALE_THRESHOLDS_MS,
} from './stale-jobs';
import type { StaleKind } from './stale-jobs';

// Own database: the query reads the whole ai_jobs and outbox tables.
const ctx = useStagingTestContext({ ownDatabase: true });
const T0 = new Date('2026-11-22T10:00:00.000Z');

beforeEach(async () => {
  await ctx.db.aiJob.deleteMany({});
  await ctx.db.storageDeletionOutbox.deleteMany({});
});

/** A v2 staging job: ai_jobs row plus its ai_room_staging_jobs row. */
async function stagingJob(data: {
  status: 'PENDING' | 'PROCESSING' | 'CANCEL_REQUESTED' | 'RETRYING';
  createdAt: Date;
  heartbeatAt?: Date | null;
  phase?: string | null;
  errorCode?: string;
}) {
  const owner = await createUser(ctx.db);
  const property = await createProperty(ctx.db, { ownerAgentId: owner.id });
  const original = await createOriginalImage(ctx.db, { propertyId: property.id });
  const job = await createStagingJob(ctx.db, {
    original,
    job: {
      status: data.status,
      phase: data.phase ?? null,
      errorCode: data.errorCode ?? null,
      dedupeKey: `${original.id}:MODERN`,
      createdAt: data.createdAt,
      updatedAt: data.createdAt,
      heartbeatAt: data.heartbeatAt ?? null,
    },
  });
  return job.id;
}

/** A DESCRIPTION job created an hour before T0. */
async function descriptionJob(status: 'PENDING' | 'SUCCESS', payload: Prisma.InputJsonObject): Promise<void> {
  await ctx.db.aiJob.create({ data: { type: 'DESCRIPTION', status, createdAt: at(-3_600_000), payload } });
}

function at(ms: number): Date {
  return new Date(T0.getTime() + ms);
}

async function kindsAt(now: Date, stagingEnabled = true): Promise<StaleKind[]> {
  return (await findStaleJobs(ctx.db, { now, stagingEnabled })).map((f) => f.kind);
}

describe('stale-job thresholds (fake clock)', () => {
  it('PENDING fires only once it is older than 5 minutes', async () => {
    await stagingJob({ status: 'PENDING', createdAt: T0 });
    expect(await kindsAt(at(STALE_THRESHOLDS_MS.pending - 1))).toEqual([]);
    expect(await kindsAt(at(STALE_THRESHOLDS_MS.pending))).toEqual([]);
    expect(await kindsAt(at(STALE_THRESHOLDS_MS.pending + 1))).toEqual(['pending']);
  });

  it.each(['PROCESSING', 'CANCEL_REQUESTED'] as const)(
    '%s fires once its heartbeat is stale over 2 minutes',
    async (status) => {
      await stagingJob({ status, createdAt: at(-3_600_000), heartbeatAt: T0 });
      expect(await kindsAt(at(STALE_THRESHOLDS_MS.heartbeat))).toEqual([]);
      expect(await kindsAt(at(STALE_THRESHOLDS_MS.heartbeat + 1))).toEqual(['heartbeat']);
    },
  );

  it('RETRYING fires once its heartbeat is stale over 5 minutes, not at 2', async () => {
    await stagingJob({
      status: 'RETRYING',
      createdAt: at(-3_600_000),
      heartbeatAt: T0,
      errorCode: 'PROVIDER_UNAVAILABLE',
    });
    expect(await kindsAt(at(STALE_THRESHOLDS_MS.heartbeat + 1))).toEqual([]);
    expect(await kindsAt(at(STALE_THRESHOLDS_MS.retrying))).toEqual([]);
    const findings = await findStaleJobs(ctx.db, {
      now: at(STALE_THRESHOLDS_MS.retrying + 1),
      stagingEnabled: true,
    });
    expect(findings).toMatchObject([{ kind: 'retrying', detailCode: 'PROVIDER_UNAVAILABLE' }]);
  });

  it('FAILED outbox rows are reported; other outbox states are not', async () => {
    await ctx.db.storageDeletionOutbox.createMany({
      data: [
        {
          objectKey: 'a',
          reason: 'STAGED_IMAGE_DELETED',
          status: 'FAILED',
          attempts: 8,
          lastError: 'AccessDenied',
        },
        { objectKey: 'b', reason: 'STAGED_IMAGE_DELETED', status: 'PENDING' },
        { objectKey: 'c', reason: 'STAGED_IMAGE_DELETED', status: 'DELETED' },
      ],
    });
    expect(await kindsAt(new Date())).toEqual(['outbox_failed']);
  });

  it('ignores jobs parked by the kill switch while it is off, jobs parked at the daily purchase cap, v1 history rows and terminal jobs', async () => {
    await stagingJob({ status: 'PENDING', createdAt: at(-3_600_000), phase: 'PROVIDER_DISABLED' });
    await ctx.db.aiJob.create({
      data: {
        type: 'ROOM_STAGING',
        status: 'PENDING',
        createdAt: at(-3_600_000),
        payload: { imageId: 'x', style: 'rustic' },
      },
    });
    await descriptionJob('PENDING', { tone: 'friendly' });
    await descriptionJob('SUCCESS', { propertyId: 'p' });
    expect(await kindsAt(T0, false)).toEqual([]);
    // With the flag on, a parked job should have been woken: it is stale again.
    expect(await kindsAt(T0, true)).toEqual(['pending']);
    // Waiting for the next day's purchases is on purpose whatever the switch says.
    await stagingJob({ status: 'PROCESSING', createdAt: at(-3_600_000), heartbeatAt: at(-3_600_000), phase: 'DAILY_PURCHASE_CAP_REACHED' });
    expect(await kindsAt(T0, true)).toEqual(['pending']);
    await descriptionJob('PENDING', { propertyId: 'p' });
    expect((await kindsAt(T0, true)).sort()).toEqual(['pending', 'pending']);
  });
});

describe('stale-job alert pass', () => {
  it('raises each finding once with searchable tags and again for a new staleness episode', async () => {
    const id = await stagingJob({ status: 'PROCESSING', createdAt: at(-3_600_000), heartbeatAt: T0 });
    const alerts: Alert[] = [];
    let now = at(STALE_THRESHOLDS_MS.heartbeat + 1);
    const deps = {
      db: ctx.db,
      dedupe: createMemoryAlertDedupe(),
      captureAlert: (alert: Alert) => alerts.push(alert),
      logger: memoryLogger().logger,
      now: () => now,
      stagingEnabled: true,
    };
    await runStaleJobAlertPass(deps);
    await runStaleJobAlertPass(deps);
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({
      level: 'warning',
      tags: { jobId: id, errorCode: 'STALE_JOB_HEARTBEAT', jobType: 'ROOM_STAGING', jobStatus: 'PROCESSING' },
    });

    // The heartbeat moves (the job recovered), then stalls again: a new alert.
    await ctx.db.aiJob.update({ where: { id }, data: { heartbeatAt: at(10 * 60_000) } });
    now = at(10 * 60_000 + STALE_THRESHOLDS_MS.heartbeat + 1);
    await runStaleJobAlertPass(deps);
    expect(alerts).toHaveLength(2);
  });

  it('Redis dedupe lets only one of several worker replicas alert', async () => {
    await stagingJob({ status: 'PENDING', createdAt: T0 });
    const suffix = uniqueQueueSuffix();
    const alerts: Alert[] = [];
    const replica = () => ({
      db: ctx.db,
      dedupe: createRedisAlertDedupe(ctx.redis, { queueSuffix: suffix, ttlMs: 60_000 }),
      captureAlert: (alert: Alert) => alerts.push(alert),
      logger: memoryLogger().logger,
      now: () => at(STALE_THRESHOLDS_MS.pending + 1),
      stagingEnabled: true,
    });
    await Promise.all([
      runStaleJobAlertPass(replica()),
      runStaleJobAlertPass(replica()),
      runStaleJobAlertPass(replica()),
    ]);
    expect(alerts).toHaveLength(1);
    expect(alerts[0]?.tags.errorCode).toBe('STALE_JOB_PENDING');
    const keys = await ctx.redis.keys(`staging:alert-dedupe${suffix}:*`);
    expect(keys).toHaveLength(1);
    await ctx.redis.del(...keys);
  });
});
