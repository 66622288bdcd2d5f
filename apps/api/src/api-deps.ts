import type { ApiConfig } from '@staging/config/api';
import type { Db } from '@staging/db/client';
import type { LoginRateLimits } from '@staging/http-edge/login-limits';
import type { RequestLimitOverrides } from '@staging/http-edge/request-limits';
import type { Logger } from '@staging/platform/logger';
import type { ObjectStorage } from '@staging/platform/storage';
import type { StagingEventHub } from '@staging/services/live/staging-event-hub';
import type { SearchQueue } from '@staging/services/search/search-queue';
import type { Clock } from '@staging/services/staging/staging-deps';
import type { StagingQueue } from '@staging/services/staging/staging-queue';
import type { TrpcDeps } from '@staging/trpc/context';

/** The ioredis client type, named through the tRPC deps so this app needs no direct dependency. */
export type RedisClient = TrpcDeps['redis'];

/**
 * Every I/O boundary of the api, created by main.ts (or a test) and injected into createApp, so
 * integration tests run the real app against their own database, queue suffix, bucket and clock.
 */
export interface ApiDeps {
  config: ApiConfig;
  db: Db;
  /** Producer connection (fails fast): rate limits, search documents, readiness. */
  redis: RedisClient;
  stagingQueue: StagingQueue;
  searchQueue: SearchQueue;
  storage: ObjectStorage;
  /** Live staging events for native clients' subscriptions; connects with the first stream. */
  stagingEvents: StagingEventHub;
  logger: Logger;
  clock: Clock;
  /** Login limits; production uses LOGIN_RATE_LIMITS, tests may shorten the window. */
  loginRateLimits?: LoginRateLimits;
  /** Points replacing entries of the request-limit table, for procedures and reads alike (tests only). */
  requestLimitOverrides?: RequestLimitOverrides;
}
