import { randomUUID } from 'node:crypto';
import { startS3rver } from '@staging/stack/s3-server';
import type { RunningS3rver } from '@staging/stack/s3-server';
import { Prisma, createDb } from '@staging/db/client';
import type { Db } from '@staging/db/client';
import { createTestDatabase } from '@staging/db/testing';
import type { TestDatabase } from '@staging/db/testing';
import { createOriginalImage, createProperty, createStagedImage, createUser } from '@staging/db/testing/factories';
import { derivativeObjectKeys } from '@staging/domain/image-derivatives';
import type { Alert } from '@staging/platform/error-tracker';
import { createObjectStorage } from '@staging/platform/storage';
import type { ObjectStorage } from '@staging/platform/storage';
import { fixedClock, memoryLogger } from '../staging/testing/staging-test-kit';
import { deletionRetryDelayMs, processDeletionOutboxBatch } from './process-deletion-outbox';
import type { DeletionOutboxDeps } from './process-deletion-outbox';

// Own database: the batch claims every due row of the table, so rows written by other test files
// running in parallel (image deletions) must not be in reach.
let database: TestDatabase;
let db: Db;
let s3: RunningS3rver;
let storage: ObjectStorage;
const bucket = 'outbox-test';

function storageFor(bucketName: string): ObjectStorage {
  return createObjectStorage({
    endpoint: s3.endpoint,
    region: 'us-east-1',
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    bucket: bucketName,
    forcePathStyle: true,
  });
}

beforeAll(async () => {
  database = await createTestDatabase();
  db = createDb(database.url, { maxConnections: 10 });
  s3 = await startS3rver({ buckets: [bucket] });
  storage = storageFor(bucket);
});

afterAll(async () => {
  storage.close();
  await s3.stop();
  await db.$disconnect();
  await database.drop();
});

beforeEach(async () => {
  await db.storageDeletionOutbox.deleteMany();
});

const options = { batchSize: 50, maxAttempts: 3, stuckAfterMs: 5 * 60_000, retryBaseMs: 1_000 };

function depsWith(parts: Partial<DeletionOutboxDeps> = {}): DeletionOutboxDeps & { alerts: Alert[] } {
  const alerts: Alert[] = [];
  return {
    db,
    storage,
    logger: memoryLogger().logger,
    clock: { now: () => new Date() },
    alert: (alert) => alerts.push(alert),
    alerts,
    ...parts,
  };
}

async function storedObject(): Promise<string> {
  const key = `properties/test/staged/${randomUUID()}.jpg`;
  await storage.putObject(key, Buffer.from('not really a jpeg'), 'image/jpeg');
  return key;
}

async function outboxRow(objectKey: string, data: { status?: 'PENDING' | 'PROCESSING'; availableAt?: Date; lockedAt?: Date | null } = {}) {
  return db.storageDeletionOutbox.create({ data: { objectKey, reason: 'STAGED_IMAGE_DELETED', ...data } });
}

describe('processDeletionOutboxBatch', () => {
  it('deletes the exact objects of rows written by image deletions within one batch', async () => {
    const owner = await createUser(db);
    const property = await createProperty(db, { ownerAgentId: owner.id });
    const originalKey = await storedObject();
    const stagedKey = await storedObject();
    const bystanderKey = await storedObject();
    const original = await createOriginalImage(db, { propertyId: property.id, objectKey: originalKey });
    await createStagedImage(db, { original, objectKey: stagedKey });
    // Deleting the original cascades to its variant; the triggers write both outbox rows.
    await db.propertyImage.delete({ where: { id: original.id } });
    expect(await db.storageDeletionOutbox.count({ where: { status: 'PENDING' } })).toBe(2);

    const result = await processDeletionOutboxBatch(depsWith(), options);
    expect(result).toEqual({ claimed: 2, deleted: 2, retried: 0, failed: 0, lost: 0 });
    const rows = await db.storageDeletionOutbox.findMany({ orderBy: { reason: 'asc' } });
    expect(rows.map((r) => [r.reason, r.objectKey, r.status, r.attempts, r.lockedAt])).toEqual([
      ['STAGED_IMAGE_DELETED', stagedKey, 'DELETED', 0, null],
      ['ORIGINAL_IMAGE_DELETED', originalKey, 'DELETED', 0, null],
    ]);
    for (const row of rows) expect(row.processedAt).toBeInstanceOf(Date);
    expect(await storage.headObject(originalKey)).toBeNull();
    expect(await storage.headObject(stagedKey)).toBeNull();
    expect(await storage.headObject(bystanderKey)).not.toBeNull();
  });

  it('deletes the resized derivatives stored under an object together with it', async () => {
    const key = await storedObject();
    const derivatives = derivativeObjectKeys(key);
    for (const derivative of derivatives) await storage.putObject(derivative, Buffer.from('webp'), 'image/webp');
    await outboxRow(key);
    expect(await processDeletionOutboxBatch(depsWith(), options)).toMatchObject({ claimed: 1, deleted: 1 });
    for (const gone of [key, ...derivatives]) expect(await storage.headObject(gone)).toBeNull();
  });

  it('treats an object that is already gone as deleted', async () => {
    await outboxRow(`properties/test/staged/${randomUUID()}.jpg`);
    expect(await processDeletionOutboxBatch(depsWith(), options)).toMatchObject({ claimed: 1, deleted: 1 });
  });

  it('leaves rows that are not due or freshly locked alone and reclaims abandoned PROCESSING rows', async () => {
    const now = new Date();
    const notDue = await outboxRow(await storedObject(), { availableAt: new Date(now.getTime() + 60_000) });
    const freshLock = await outboxRow(await storedObject(), { status: 'PROCESSING', lockedAt: new Date(now.getTime() - 60_000) });
    const stuckKey = await storedObject();
    const stuck = await outboxRow(stuckKey, { status: 'PROCESSING', lockedAt: new Date(now.getTime() - 6 * 60_000) });

    const result = await processDeletionOutboxBatch(depsWith({ clock: { now: () => now } }), options);
    expect(result).toMatchObject({ claimed: 1, deleted: 1 });
    const byId = async (id: string) => db.storageDeletionOutbox.findUniqueOrThrow({ where: { id } });
    expect((await byId(stuck.id)).status).toBe('DELETED');
    expect(await storage.headObject(stuckKey)).toBeNull();
    expect((await byId(notDue.id)).status).toBe('PENDING');
    expect(await byId(freshLock.id)).toMatchObject({ status: 'PROCESSING', lockedAt: freshLock.lockedAt });
  });

  it('retries a failing store with exponential backoff, then marks the row FAILED with lastError and alerts once', async () => {
    // A real S3 error: the bucket does not exist on the server.
    const broken = storageFor('no-such-bucket');
    const clock = fixedClock(new Date());
    const deps = depsWith({ storage: broken, clock });
    const row = await outboxRow(`properties/test/staged/${randomUUID()}.jpg`, { availableAt: clock.now() });
    try {
      const first = await processDeletionOutboxBatch(deps, options);
      expect(first).toMatchObject({ claimed: 1, retried: 1, failed: 0 });
      let current = await db.storageDeletionOutbox.findUniqueOrThrow({ where: { id: row.id } });
      expect(current).toMatchObject({ status: 'PENDING', attempts: 1, lockedAt: null });
      expect(current.lastError).toMatch(/NoSuchBucket/);
      expect(current.availableAt.getTime()).toBe(clock.now().getTime() + deletionRetryDelayMs(1, options.retryBaseMs));

      // Not due yet: nothing happens until the backoff has passed.
      expect((await processDeletionOutboxBatch(deps, options)).claimed).toBe(0);

      clock.set(current.availableAt);
      expect(await processDeletionOutboxBatch(deps, options)).toMatchObject({ claimed: 1, retried: 1 });
      current = await db.storageDeletionOutbox.findUniqueOrThrow({ where: { id: row.id } });
      expect(current.attempts).toBe(2);
      expect(current.availableAt.getTime()).toBe(clock.now().getTime() + 2_000);

      clock.set(current.availableAt);
      expect(await processDeletionOutboxBatch(deps, options)).toMatchObject({ claimed: 1, failed: 1 });
      current = await db.storageDeletionOutbox.findUniqueOrThrow({ where: { id: row.id } });
      expect(current).toMatchObject({ status: 'FAILED', attempts: 3, processedAt: null, lockedAt: null });
      expect(current.lastError).toMatch(/NoSuchBucket/);

      clock.set(new Date(clock.now().getTime() + 24 * 3600_000));
      expect((await processDeletionOutboxBatch(deps, options)).claimed).toBe(0);
      expect(deps.alerts).toEqual([
        expect.objectContaining({ level: 'error', tags: { errorCode: 'STORAGE_DELETION_FAILED', outboxId: row.id } }),
      ]);
    } finally {
      broken.close();
    }
  });

  it('lets two concurrent batches delete every object exactly once', async () => {
    const keys = await Promise.all(Array.from({ length: 40 }, () => storedObject()));
    for (const key of keys) await outboxRow(key);
    const calls = new Map<string, number>();
    const counting: DeletionOutboxDeps['storage'] = {
      async deleteObject(key) {
        // Each row also deletes its (absent) derivatives; the sources are what is counted here.
        if (!key.startsWith('derivatives/')) calls.set(key, (calls.get(key) ?? 0) + 1);
        await storage.deleteObject(key);
      },
    };
    const deps = depsWith({ storage: counting });
    const [a, b] = await Promise.all([
      processDeletionOutboxBatch(deps, { ...options, batchSize: 40 }),
      processDeletionOutboxBatch(deps, { ...options, batchSize: 40 }),
    ]);
    expect(a.claimed + b.claimed).toBe(40);
    expect(a.deleted + b.deleted).toBe(40);
    expect([...calls.values()].every((n) => n === 1)).toBe(true);
    expect([...calls.keys()].sort()).toEqual([...keys].sort());
    expect(await db.storageDeletionOutbox.count({ where: { status: 'DELETED' } })).toBe(40);
  });
});

describe('claiming', () => {
  it('skips rows another claimer holds locked instead of waiting for them or taking them', async () => {
    const keys = await Promise.all(Array.from({ length: 10 }, () => storedObject()));
    const rows = [];
    for (const key of keys) rows.push(await outboxRow(key));
    const held = rows.slice(0, 4).map((r) => r.id);
    let result: Awaited<ReturnType<typeof processDeletionOutboxBatch>> | undefined;
    await db.$transaction(async (tx) => {
      // Another worker in the middle of its claim statement holds these row locks.
      await tx.$queryRaw`SELECT "id" FROM "storage_deletion_outbox" WHERE "id" IN (${Prisma.join(held)}) FOR UPDATE`;
      const batch = processDeletionOutboxBatch(depsWith(), options);
      // A claim that waited for the locks could only finish after this transaction ends, so any
      // guard tells the two apart; a generous one keeps a busy machine from looking "blocked".
      const timeout = new Promise<'blocked'>((resolve) => setTimeout(() => resolve('blocked'), 30_000));
      const outcome = await Promise.race([batch, timeout]);
      expect(outcome).not.toBe('blocked');
      result = outcome as typeof result;
    }, { timeout: 60_000 });
    expect(result).toMatchObject({ claimed: 6, deleted: 6 });
    const untouched = await db.storageDeletionOutbox.findMany({ where: { id: { in: held } } });
    expect(untouched.map((r) => r.status)).toEqual(['PENDING', 'PENDING', 'PENDING', 'PENDING']);
  });
});

describe('a slow worker whose rows were reclaimed', () => {
  it('does not overwrite the outcome of the worker that reclaimed them', async () => {
    const key = await storedObject();
    const row = await outboxRow(key);
    const start = Date.now();
    let reclaimer: Awaited<ReturnType<typeof processDeletionOutboxBatch>> | undefined;
    const slow: DeletionOutboxDeps['storage'] = {
      async deleteObject(objectKey) {
        // While this worker hangs (on its first key), another one decides the lock is abandoned
        // and takes over.
        reclaimer ??= await processDeletionOutboxBatch(
          depsWith({ clock: { now: () => new Date(start + 10 * 60_000) } }),
          options,
        );
        await storage.deleteObject(objectKey);
      },
    };
    const first = await processDeletionOutboxBatch(depsWith({ storage: slow, clock: { now: () => new Date(start) } }), options);
    expect(reclaimer).toMatchObject({ claimed: 1, deleted: 1 });
    expect(first).toMatchObject({ claimed: 1, deleted: 0, lost: 1 });
    const current = await db.storageDeletionOutbox.findUniqueOrThrow({ where: { id: row.id } });
    expect(current.status).toBe('DELETED');
    expect(current.processedAt?.getTime()).toBe(start + 10 * 60_000);
  });
});

describe('deletionRetryDelayMs', () => {
  it('doubles from the base and caps at an hour', () => {
    expect([1, 2, 3, 4].map((n) => deletionRetryDelayMs(n, 30_000))).toEqual([30_000, 60_000, 120_000, 240_000]);
    expect(deletionRetryDelayMs(20, 30_000)).toBe(3_600_000);
  });
});
