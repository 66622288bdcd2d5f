import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { createDb } from '@staging/db/client';
import type { Db } from '@staging/db/client';
import { createTestDatabase } from '@staging/db/testing';
import type { TestDatabase } from '@staging/db/testing';
import { createOriginalImage, createProperty, createUser } from '@staging/db/testing/factories';
import type { Alert } from '@staging/platform/error-tracker';
import { memoryLogger, openTestRedis, uniqueQueueSuffix } from '../staging/testing/staging-test-kit';
import {
  createMemoryAlertDedupe,
  createRedisAlertDedupe,
  findStaleJobs,
  runStaleJobAlertPass,
  STALE_THRESHOLDS_MS,
} from './stale-jobs';
import type { StaleKind } from './stale-jobs';

// Own database: the query reads the whole ai_jobs and outbox tables.
let database: TestDatabase;
let db: Db;
let redis: Redis;
const T0 = new Date('2026-11-22T10:00:00.000Z');

beforeAll(async () => {
  database = await createTestDatabase();
  db = createDb(database.url, { maxConnections: 5 });
  redis = openTestRedis();
});

afterAll(async () => {
  await db.$disconnect();
  await database.drop();
  redis.disconnect();
});

beforeEach(async () => {
  await db.aiJob.deleteMany({});
  await db.storageDeletionOutbox.deleteMany({});
});

/** A v2 staging job: ai_jobs row plus its ai_room_staging_jobs row. */
async function stagingJob(data: {
  status: 'PENDING' | 'PROCESSING' | 'CANCEL_REQUESTED' | 'RETRYING';
  createdAt: Date;
  heartbeatAt?: Date | null;
  phase?: string | null;
  errorCode?: string;
}) {
  const owner = await createUser(db);
  const property = await createProperty(db, { ownerAgentId: owner.id });
  const original = await createOriginalImage(db, { propertyId: property.id });
  const id = randomUUID();
  await db.aiJob.create({
    data: {
      id,
      type: 'ROOM_STAGING',
      status: data.status,
      phase: data.phase ?? null,
      errorCode: data.errorCode ?? null,
      dedupeKey: `${original.id}:MODERN`,
      propertyId: property.id,
      createdAt: data.createdAt,
      updatedAt: data.createdAt,
      heartbeatAt: data.heartbeatAt ?? null,
      staging: {
        create: {
          originalImageId: original.id,
          propertyId: property.id,
          canonicalRoomType: 'LIVING_ROOM',
          canonicalStyle: 'MODERN',
          submittedStyle: 'MODERN',
          providerModel: 'openai/gpt-image-2',
          promptVersion: 'staging-v2.1',
          prompt: 'p',
          quality: 'medium',
          aspectRatio: '1:1',
          outputFormat: 'jpeg',
          outputCompression: 92,
        },
      },
    },
  });
  return id;
}

function at(ms: number): Date {
  return new Date(T0.getTime() + ms);
}

async function kindsAt(now: Date, stagingEnabled = true): Promise<StaleKind[]> {
  return (await findStaleJobs(db, { now, stagingEnabled })).map((f) => f.kind);
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
    const findings = await findStaleJobs(db, {
      now: at(STALE_THRESHOLDS_MS.retrying + 1),
      stagingEnabled: true,
    });
    expect(findings).toMatchObject([{ kind: 'retrying', detailCode: 'PROVIDER_UNAVAILABLE' }]);
  });

  it('FAILED outbox rows are reported; other outbox states are not', async () => {
    await db.storageDeletionOutbox.createMany({
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

  it('ignores jobs parked by the kill switch while it is off, v1 history rows and terminal jobs', async () => {
    await stagingJob({ status: 'PENDING', createdAt: at(-3_600_000), phase: 'PROVIDER_DISABLED' });
    await db.aiJob.create({
      data: {
        type: 'ROOM_STAGING',
        status: 'PENDING',
        createdAt: at(-3_600_000),
        payload: { imageId: 'x', style: 'rustic' },
      },
    });
    await db.aiJob.create({
      data: {
        type: 'DESCRIPTION',
        status: 'PENDING',
        createdAt: at(-3_600_000),
        payload: { tone: 'friendly' },
      },
    });
    await db.aiJob.create({
      data: {
        type: 'DESCRIPTION',
        status: 'SUCCESS',
        createdAt: at(-3_600_000),
        payload: { propertyId: 'p' },
      },
    });
    expect(await kindsAt(T0, false)).toEqual([]);
    // With the flag on, a parked job should have been woken: it is stale again.
    expect(await kindsAt(T0, true)).toEqual(['pending']);
    await db.aiJob.create({
      data: {
        type: 'DESCRIPTION',
        status: 'PENDING',
        createdAt: at(-3_600_000),
        payload: { propertyId: 'p' },
      },
    });
    expect((await kindsAt(T0, true)).sort()).toEqual(['pending', 'pending']);
  });
});

describe('stale-job alert pass', () => {
  it('raises each finding once with searchable tags and again for a new staleness episode', async () => {
    const id = await stagingJob({ status: 'PROCESSING', createdAt: at(-3_600_000), heartbeatAt: T0 });
    const alerts: Alert[] = [];
    let now = at(STALE_THRESHOLDS_MS.heartbeat + 1);
    const deps = {
      db,
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
    await db.aiJob.update({ where: { id }, data: { heartbeatAt: at(10 * 60_000) } });
    now = at(10 * 60_000 + STALE_THRESHOLDS_MS.heartbeat + 1);
    await runStaleJobAlertPass(deps);
    expect(alerts).toHaveLength(2);
  });

  it('Redis dedupe lets only one of several worker replicas alert', async () => {
    await stagingJob({ status: 'PENDING', createdAt: T0 });
    const suffix = uniqueQueueSuffix();
    const alerts: Alert[] = [];
    const replica = () => ({
      db,
      dedupe: createRedisAlertDedupe(redis, { queueSuffix: suffix, ttlMs: 60_000 }),
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
    const keys = await redis.keys(`staging:alert-dedupe${suffix}:*`);
    expect(keys).toHaveLength(1);
    await redis.del(...keys);
  });
});
