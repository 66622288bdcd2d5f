// Test support for the api's integration tests: the real server (createApiServer) listening on port 0 over
// the Jest run's Postgres, real Redis with a queue suffix unique to each test file, an in-process
// s3rver bucket, a log capture and helpers that speak plain HTTP with fetch.
import type { Server } from 'node:http';
import { parseApiEnv } from '@staging/config/api';
import type { ApiConfig } from '@staging/config/api';
import { apiTestEnv } from '@staging/config/test-env';
import { createDb } from '@staging/db/client';
import type { Db } from '@staging/db/client';
import type { LoginRateLimits } from '@staging/http-edge/login-limits';
import type { RequestLimitOverrides } from '@staging/http-edge/request-limits';
import { initErrorTracker } from '@staging/platform/error-tracker';
import type { Logger } from '@staging/platform/logger';
import { createRedis } from '@staging/platform/queues';
import { createObjectStorage } from '@staging/platform/storage';
import { memoryLogger } from '@staging/platform/testing/memory-logger';
import type { MemoryLogger } from '@staging/platform/testing/memory-logger';
import type { ObjectStorage } from '@staging/platform/storage';
import { SESSION_COOKIE_NAME } from '@staging/services/auth/cookies';
import { createSession } from '@staging/services/auth/sessions';
import { createStagingEventHub } from '@staging/services/live/staging-event-hub';
import { searchDocumentKey, searchIndexKey } from '@staging/services/search/search-index-keys';
import { createSearchQueue } from '@staging/services/search/search-queue';
import type { SearchQueue } from '@staging/services/search/search-queue';
import type { Clock } from '@staging/services/staging/staging-deps';
import { createStagingQueue } from '@staging/services/staging/staging-queue';
import type { StagingQueue } from '@staging/services/staging/staging-queue';
import { listeningPort } from '@staging/platform/http-client-errors';
import { startS3rver } from '@staging/stack/s3-server';
import type { RunningS3rver } from '@staging/stack/s3-server';
import { stackBuilder, uniqueQueueSuffix } from '@staging/stack/stack-builder';
import type { ApiDeps, RedisClient } from '../../src/api-deps';
import { createApiServer } from '../../src/create-server';
import { deleteKeysMatching } from '@staging/platform/redis-keys';

export const TEST_BUCKET = 'api-test-bucket';

/** Origin the tests configure as the web app's (API_ALLOWED_ORIGINS). */
export const WEB_ORIGIN = 'https://app.example.test';

export type LogCapture = Omit<MemoryLogger, 'logger'>;

export function captureLogs(): { logger: Logger; logs: LogCapture } {
  const { logger, ...logs } = memoryLogger('api-test');
  return { logger, logs };
}

function requiredEnv(name: 'DATABASE_URL' | 'VALKEY_URL' | 'QUEUE_SUFFIX'): string {
  const value = process.env[name];
  if (value === undefined) throw new Error(`${name} is not set: the Jest global setup did not run`);
  return value;
}

export interface ApiHarness {
  url: string;
  deps: ApiDeps;
  db: Db;
  redis: RedisClient;
  storage: ObjectStorage;
  stagingQueue: StagingQueue;
  searchQueue: SearchQueue;
  config: ApiConfig;
  logs: LogCapture;
  /** Deletes this file's queue and search keys, closes everything. */
  close(): Promise<void>;
}

export interface StartApiOptions {
  env?: Record<string, string | undefined>;
  clock?: Clock;
  loginRateLimits?: LoginRateLimits;
  requestLimitOverrides?: RequestLimitOverrides;
}

let sharedS3: Promise<RunningS3rver> | undefined;

/** One s3rver per test file (Jest runs each file in its own module registry). */
function s3(): Promise<RunningS3rver> {
  sharedS3 ??= startS3rver({ buckets: [TEST_BUCKET] });
  return sharedS3;
}

export async function startApi(options: StartApiOptions = {}): Promise<ApiHarness> {
  const s3rver = await s3();
  const queueSuffix = uniqueQueueSuffix(`${requiredEnv('QUEUE_SUFFIX')}-`);
  const config = parseApiEnv(
    apiTestEnv({
      DATABASE_URL: requiredEnv('DATABASE_URL'),
      VALKEY_URL: requiredEnv('VALKEY_URL'),
      QUEUE_SUFFIX: queueSuffix,
      S3_ENDPOINT: s3rver.endpoint,
      S3_BUCKET: TEST_BUCKET,
      API_ALLOWED_ORIGINS: WEB_ORIGIN,
      LOG_LEVEL: 'debug',
      ...options.env,
    }),
  );
  const { logger, logs } = captureLogs();
  // No DSN: alerts are written to this logger only, where tests can read them.
  initErrorTracker({ service: 'api-test', environment: 'test', release: 'test', logger });
  const stack = stackBuilder();
  const storage = createObjectStorage(config.storage);
  stack.defer(() => storage.close());
  const db = createDb(config.databaseUrl, { maxConnections: 20 });
  stack.defer(() => db.$disconnect());
  const redis = createRedis(config.valkeyUrl, { role: 'worker', connectionName: 'api-test' });
  stack.defer(() => redis.quit());
  const stagingEvents = createStagingEventHub({ db, logger });
  stack.defer(() => stagingEvents.close());
  const searchQueue = createSearchQueue(redis, config.queueSuffix);
  stack.defer(() => searchQueue.close());
  const stagingQueue = createStagingQueue(redis, config.queueSuffix);
  stack.defer(() => stagingQueue.close());
  stack.defer(async () => {
    await deleteKeysMatching(redis, `bull:*${config.queueSuffix}:*`);
    await deleteKeysMatching(redis, `rl:*${config.queueSuffix}*`);
    // Search documents written under this file's suffix, then their index set.
    const indexKey = searchIndexKey(config.queueSuffix);
    const documentIds = await redis.smembers(indexKey);
    if (documentIds.length > 0) await redis.del(...documentIds.map(searchDocumentKey));
    await redis.del(indexKey);
  });
  const deps: ApiDeps = {
    config,
    db,
    redis,
    stagingQueue,
    searchQueue,
    storage,
    stagingEvents,
    logger,
    clock: options.clock ?? { now: () => new Date() },
    ...(options.loginRateLimits === undefined ? {} : { loginRateLimits: options.loginRateLimits }),
    ...(options.requestLimitOverrides === undefined ? {} : { requestLimitOverrides: options.requestLimitOverrides }),
  };
  const server: Server = createApiServer(deps).listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  stack.defer(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  return {
    url: `http://127.0.0.1:${listeningPort(server)}`,
    deps,
    db,
    redis,
    storage,
    stagingQueue,
    searchQueue,
    config,
    logs,
    close: stack.stop,
  };
}

/** Stops the file's s3rver; call in the last afterAll of a file. */
export async function stopS3(): Promise<void> {
  if (sharedS3 === undefined) return;
  const running = await sharedS3;
  sharedS3 = undefined;
  await running.stop();
}

/** A Cookie header value for a fresh session of `userId`. */
export async function sessionCookie(db: Db, userId: string): Promise<string> {
  const { token } = await createSession(db, userId, { now: new Date(), ttlMs: 3_600_000 });
  return `${SESSION_COOKIE_NAME}=${token}`;
}
