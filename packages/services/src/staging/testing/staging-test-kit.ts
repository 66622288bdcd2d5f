// Helpers for the staging and outbox integration tests: real Postgres (the Jest run's migrated
// database), real Redis with a queue name unique to each test, and a logger whose lines a test
// can read back.
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { createDb } from '@staging/db/client';
import type { Db } from '@staging/db/client';
import { createTestDatabase } from '@staging/db/testing';
import type { TestDatabase } from '@staging/db/testing';
import { createOriginalImage, createProperty, createUser } from '@staging/db/testing/factories';
import type { Logger } from '@staging/platform/logger';
import { createRedis, queueNames } from '@staging/platform/queues';
import { memoryLogger as platformMemoryLogger } from '@staging/platform/testing/memory-logger';
import type { MemoryLogger } from '@staging/platform/testing/memory-logger';
import type { Actor } from '../../access/property-access';
import type { Clock, JobReadDeps, StagingProducerDeps } from '../staging-deps';
import { createPaidStartLimiter, paidStartLimiterKey } from '../paid-start-limiter';
import type { PaidStartLimiter } from '../paid-start-limiter';
import { createStagingQueue } from '../staging-queue';
import type { StagingQueue } from '../staging-queue';
import { deleteKeysMatching } from '@staging/platform/redis-keys';

function runDatabaseUrl(): string {
  const url = process.env.DATABASE_URL;
  if (url === undefined) throw new Error('DATABASE_URL is not set: the Jest global setup did not run');
  return url;
}

export function openTestDb(): Db {
  return createDb(runDatabaseUrl(), { maxConnections: 20 });
}

export function openTestRedis(): Redis {
  return createRedis(process.env.VALKEY_URL ?? 'redis://127.0.0.1:6379', {
    role: 'worker',
    connectionName: 'services-test',
  });
}

/** The run's suffix plus a per-test part, so no two tests ever share a queue. */
export function uniqueQueueSuffix(): string {
  return `${process.env.QUEUE_SUFFIX ?? ''}-${randomBytes(4).toString('hex')}`;
}

export interface TestQueue {
  suffix: string;
  name: string;
  queue: StagingQueue;
  /** Deletes every Redis key of this queue only (the "Redis lost it" scenario), never others. */
  deleteKeys(): Promise<number>;
  close(): Promise<void>;
}

export async function openTestQueue(redis: Redis): Promise<TestQueue> {
  const suffix = uniqueQueueSuffix();
  const name = queueNames(suffix).staging;
  const queue = createStagingQueue(redis, suffix);
  await queue.waitUntilReady();
  const deleteKeys = (): Promise<number> => deleteKeysMatching(redis, `bull:${name}:*`);
  return {
    suffix,
    name,
    queue,
    deleteKeys,
    async close() {
      await deleteKeys();
      await queue.close();
    },
  };
}

export type { MemoryLogger };

export function memoryLogger(): MemoryLogger {
  return platformMemoryLogger('services-test');
}

/** A clock standing still at `at` until moved. */
export function fixedClock(at: Date): Clock & { set(next: Date): void } {
  let current = at;
  return { now: () => new Date(current.getTime()), set: (next) => (current = next) };
}

export interface SeededListing {
  actor: Actor;
  propertyId: string;
  originalImageId: string;
}

/** A property with one original photo, of a new agent or of `ownerAgentId`. */
export async function seedListing(db: Db, options: { ownerAgentId?: string } = {}): Promise<SeededListing> {
  const ownerAgentId = options.ownerAgentId ?? (await createUser(db)).id;
  const property = await createProperty(db, { ownerAgentId });
  const original = await createOriginalImage(db, { propertyId: property.id });
  return { actor: { id: ownerAgentId, role: 'AGENT' }, propertyId: property.id, originalImageId: original.id };
}

export async function seedOtherAgent(db: Db): Promise<Actor> {
  const user = await createUser(db);
  return { id: user.id, role: 'AGENT' };
}

export const TEST_SUNSET_AT = new Date('2027-01-31T23:59:59.999Z');

export function producerDeps(
  parts: { db: Db; stagingQueue: StagingQueue; logger: Logger; clock?: Clock },
  staging: Partial<StagingProducerDeps['staging']> = {},
): StagingProducerDeps {
  return {
    db: parts.db,
    stagingQueue: parts.stagingQueue,
    logger: parts.logger,
    clock: parts.clock ?? { now: () => new Date() },
    staging: {
      enabled: true,
      dailyPurchaseCap: null,
      producer: { quality: 'medium', aspectRatio: '3:2', outputFormat: 'jpeg', outputCompression: 92 },
      legacyAliasSunsetAt: TEST_SUNSET_AT,
      providerModel: 'openai/gpt-image-2',
      ...staging,
    },
  };
}

export interface StagingTestContext {
  /** The database `db` is connected to (for a child process under test). */
  databaseUrl: string;
  db: Db;
  redis: Redis;
  /** A fresh queue namespace per test, closed after it. */
  tq: TestQueue;
  /** A fresh in-memory logger per test. */
  log: MemoryLogger;
}

/**
 * Registers the lifecycle every staging integration file needs: one database client and Redis
 * connection per file, a new queue namespace and logger per test. Read the fields inside tests.
 *
 * @param options.ownDatabase a database of the file's own, dropped after it, for code that scans
 *   whole tables (repair, stale-job alerts) and must not see other files' rows.
 */
export function useStagingTestContext(options: { ownDatabase?: boolean } = {}): StagingTestContext {
  const ctx = {} as StagingTestContext;
  let database: TestDatabase | undefined;
  beforeAll(async () => {
    if (options.ownDatabase === true) {
      database = await createTestDatabase();
      ctx.databaseUrl = database.url;
      ctx.db = createDb(database.url, { maxConnections: 5 });
    } else {
      ctx.databaseUrl = runDatabaseUrl();
      ctx.db = openTestDb();
    }
    ctx.redis = openTestRedis();
  });
  afterAll(async () => {
    await ctx.db.$disconnect();
    ctx.redis.disconnect();
    await database?.drop();
  });
  beforeEach(async () => {
    ctx.tq = await openTestQueue(ctx.redis);
    ctx.log = memoryLogger();
  });
  afterEach(async () => {
    await ctx.tq.close();
  });
  return ctx;
}

interface LedgerTestContext {
  db: Db;
  /** An original photo of a fresh listing, for jobs written straight into the ledger. */
  original: { id: string; propertyId: string };
}

/**
 * A database of the file's own and one original photo, for tests of the ledger's own writes. They
 * leave rows in every status (CREATING attempts without a creatingAt among them), which tests that
 * scan whole tables of the shared database must not see.
 */
export function useLedgerTestContext(): LedgerTestContext {
  const ctx = {} as LedgerTestContext;
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
    ctx.db = createDb(database.url, { maxConnections: 5 });
    const listing = await seedListing(ctx.db);
    ctx.original = { id: listing.originalImageId, propertyId: listing.propertyId };
  });
  afterAll(async () => {
    await ctx.db.$disconnect();
    await database.drop();
  });
  return ctx;
}

export interface ProducerTestContext extends StagingTestContext {
  /** Back at the start instant when each test begins; tests move it themselves. */
  clock: Clock & { set(next: Date): void };
  /** Producer deps over this test's queue, logger and `clock`, with the Redis job reads use. */
  deps: StagingProducerDeps & JobReadDeps;
}

/** useStagingTestContext for files that drive the producer use cases on a clock of their own. */
export function useProducerTestContext(start: Date): ProducerTestContext {
  const ctx = useStagingTestContext() as ProducerTestContext;
  ctx.clock = fixedClock(start);
  beforeEach(() => {
    ctx.clock.set(start);
    ctx.deps = {
      ...producerDeps({ db: ctx.db, stagingQueue: ctx.tq.queue, logger: ctx.log.logger, clock: ctx.clock }),
      redis: ctx.redis,
    };
  });
  return ctx;
}

/** The start line of a test's queue as the workers keep it: 6 starts a minute, nothing recorded before. */
export function testPaidStartLimiter(redis: Redis, queue: TestQueue): PaidStartLimiter {
  return createPaidStartLimiter({
    redis,
    key: paidStartLimiterKey(queue.queue.name),
    limit: 6,
    windowMs: 60_000,
    inFlightHoldMs: 1_000,
    loadRecordedStarts: async () => [],
  });
}
