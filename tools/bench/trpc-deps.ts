// The procedures' dependencies for a benchmark that calls the tRPC router in-process
// (appRouter.createCaller): real Postgres and Redis, staging submission off, a queue namespace of
// its own, logs at error only.
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Db } from '@staging/db/client';
import type { RequestLimitOverrides } from '@staging/http-edge/request-limits';
import { createLogger } from '@staging/platform/logger';
import { createStagingEventHub } from '@staging/services/live/staging-event-hub';
import { createSearchQueue } from '@staging/services/search/search-queue';
import { systemClock } from '@staging/services/staging/staging-deps';
import { createStagingQueue } from '@staging/services/staging/staging-queue';
import type { TrpcDeps } from '@staging/trpc/context';

export function benchTrpcDeps(options: { db: Db; redis: Redis; service: string; requestLimitOverrides?: RequestLimitOverrides }): TrpcDeps {
  const { db, redis } = options;
  const queueSuffix = `-bench-${randomUUID().slice(0, 8)}`;
  const logger = createLogger({ service: options.service, level: 'error' });
  return {
    db,
    redis,
    logger,
    clock: systemClock,
    queueSuffix,
    allowedOrigins: [],
    trustedProxyHops: 0,
    ...(options.requestLimitOverrides === undefined ? {} : { requestLimitOverrides: options.requestLimitOverrides }),
    staging: {
      enabled: false,
      dailyPurchaseCap: null,
      producer: { quality: 'medium', aspectRatio: '1:1', outputFormat: 'jpeg', outputCompression: 92 },
      legacyAliasSunsetAt: new Date('2030-01-01T00:00:00Z'),
      providerModel: 'openai/gpt-image-2',
    },
    stagingQueue: createStagingQueue(redis, queueSuffix),
    searchQueue: createSearchQueue(redis, queueSuffix),
    // Never subscribed to here, so it never connects.
    stagingEvents: createStagingEventHub({ db, logger }),
  };
}
