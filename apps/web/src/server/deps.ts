import 'server-only';
import { revalidateTag } from 'next/cache';
import type { WebConfig } from '@staging/config/web';
import { parseWebEnv } from '@staging/config/web';
import { createDb, type Db } from '@staging/db/client';
import { createLoginGuard } from '@staging/http-edge/login-guard';
import type { LoginGuard } from '@staging/http-edge/login-guard';
import { createLogger, type Logger } from '@staging/platform/logger';
import { createRedis } from '@staging/platform/queues';
import { createStagingEventHub } from '@staging/services/live/staging-event-hub';
import { createSearchQueue } from '@staging/services/search/search-queue';
import { createStagingQueue } from '@staging/services/staging/staging-queue';
import type { TrpcDeps } from '@staging/trpc/context';
import { createTrpcFetchHandler } from '@staging/trpc/http';
import { systemClock } from '@staging/services/staging/staging-deps';
import { publicListingTag } from '@/server/public-page-tags';

export interface WebDeps {
  config: WebConfig;
  db: Db;
  redis: ReturnType<typeof createRedis>;
  logger: Logger;
  /** The shared router served in-process at /api/trpc. */
  handleTrpc: (request: Request) => Promise<Response>;
  /** The sign-in form's limits, the same as the api's login (docs/decisions/api.md "Login rate limits"). */
  loginGuard: LoginGuard;
}

declare global {
  // Kept on globalThis so `next dev` module reloads reuse one pool instead of leaking a new one
  // per edit; in production the module is evaluated once anyway.
  var __stagingWebDeps: WebDeps | undefined;
}

/**
 * Connections and configuration of the web runtime, created on first use: `next build` imports
 * every route module but must not need a database, a queue store or secrets.
 */
export function getWebDeps(): WebDeps {
  if (globalThis.__stagingWebDeps !== undefined) return globalThis.__stagingWebDeps;
  // eslint-disable-next-line no-restricted-properties -- the web entry point hands its environment to @staging/config
  const config = parseWebEnv(process.env);
  const logger = createLogger({ service: 'web', level: config.logLevel });
  const db = createDb(config.databaseUrl);
  const redis = createRedis(config.valkeyUrl, {
    role: 'producer',
    connectionName: 'web',
    onError: (error) => logger.warn({ err: error }, 'queue store connection error'),
  });
  const trpcDeps: TrpcDeps = {
    db,
    redis,
    logger,
    clock: systemClock,
    queueSuffix: config.queueSuffix,
    // Same-host requests are always accepted; the dashboard has no other browser origin.
    allowedOrigins: [],
    trustedProxyHops: config.trustedProxyHops,
    staging: {
      enabled: config.stagingEnabled,
      dailyPurchaseCap: config.dailyPurchaseCap,
      producer: config.producer,
      legacyAliasSunsetAt: config.legacyAliasSunsetAt,
      providerModel: config.providerModel,
    },
    // The web app is a staging producer (docs/system.md 1): submissions are added to ai-staging<S> here.
    stagingQueue: createStagingQueue(redis, config.queueSuffix),
    searchQueue: createSearchQueue(redis, config.queueSuffix),
    // The agent's own change shows on the listing page's next view: the mutation's request expires
    // the cached page before it answers. Search pages wait for the rebuilt search document
    // (instrumentation-node), which also brings changes made through the api.
    publicListingChanged: (propertyId) => revalidateTag(publicListingTag(propertyId), { expire: 0 }),
    // One listening connection for the whole process (kept on globalThis with the rest), opened
    // by the first dashboard tab that subscribes.
    stagingEvents: createStagingEventHub({ db, logger }),
  };
  const deps: WebDeps = {
    config,
    db,
    redis,
    logger,
    handleTrpc: createTrpcFetchHandler(trpcDeps),
    loginGuard: createLoginGuard(trpcDeps),
  };
  globalThis.__stagingWebDeps = deps;
  return deps;
}
