import express from 'express';
import type { Express } from 'express';
import { createTrpcNodeHandler, TRPC_ENDPOINT } from '@staging/trpc/http';
import type { TrpcDeps } from '@staging/trpc/context';
import type { ApiDeps } from './api-deps';
import { errorMiddleware, notFoundHandler } from './http/errors';
import { createOriginCheck } from './http/origin-check';
import { clientAddressOf, createReadLimit } from './http/read-limits';
import { createRequestLogger } from './http/request-logging';
import { createSecurityHeaders } from './http/security-headers';
import { createAuthRouter } from './routes/auth';
import { createDerivativeRouter } from './routes/derivatives';
import { createHealthRouter } from './routes/health';
import { createImageRouter } from './routes/images';
import { createInventoryExportRouter } from './routes/inventory-export';
import { createProviderWebhookRouter } from './routes/provider-webhook';
import { createPublicRouter } from './routes/public';
import type { ProviderCallbackRecorder } from './webhooks/record-provider-callback';

/** The tRPC deps of this process, derived from the api's own. */
export function toTrpcDeps(deps: ApiDeps): TrpcDeps {
  return {
    db: deps.db,
    redis: deps.redis,
    logger: deps.logger,
    clock: deps.clock,
    queueSuffix: deps.config.queueSuffix,
    allowedOrigins: deps.config.allowedOrigins,
    trustedProxyHops: deps.config.trustedProxyHops,
    ...(deps.requestLimitOverrides === undefined ? {} : { requestLimitOverrides: deps.requestLimitOverrides }),
    stagingQueue: deps.stagingQueue,
    searchQueue: deps.searchQueue,
    stagingEvents: deps.stagingEvents,
    staging: {
      enabled: deps.config.stagingEnabled,
      dailyPurchaseCap: deps.config.dailyPurchaseCap,
      producer: deps.config.producer,
      legacyAliasSunsetAt: deps.config.legacyAliasSunsetAt,
      providerModel: deps.config.providerModel,
    },
  };
}

/**
 * The api's Express app from injected deps; createApiServer (create-server.ts) serves it, and
 * `recordCallback` is the one recorder its webhook route shares with the direct path there.
 *
 * Order matters: request IDs and logging first; the webhook router before any body parser (it
 * needs the raw bytes); the cross-site check before the cookie-authenticated routes; one 404 and
 * one error middleware last. Nothing here redirects: no static files, no trailing-slash or scheme
 * rewrites (strict routing is off, so `/path/` is served by the `/path` route directly).
 */
export function createApp(deps: ApiDeps, recordCallback: ProviderCallbackRecorder): Express {
  const app = express();
  app.disable('x-powered-by');
  // The api reads X-Forwarded-* through http/request-source.ts; the numeric setting makes a stray
  // `req.ip` name the same client (Express takes the N-th X-Forwarded-For entry from the right too).
  app.set('trust proxy', deps.config.trustedProxyHops);
  app.set('etag', false);
  app.use(createSecurityHeaders(deps.config));

  const trpcDeps = toTrpcDeps(deps);
  const readLimit = createReadLimit(deps, trpcDeps);
  app.use(createRequestLogger(deps.logger));
  app.use(createHealthRouter(deps));
  app.use(createProviderWebhookRouter(deps, recordCallback));
  // tRPC applies its own cross-site guard to cookie-authenticated mutations.
  app.use(TRPC_ENDPOINT, createTrpcNodeHandler(trpcDeps, { clientAddress: (req) => clientAddressOf(req, deps.config.trustedProxyHops) }));
  app.use(createPublicRouter(deps, readLimit));
  app.use(createDerivativeRouter(deps, readLimit));
  app.use('/api', createOriginCheck(deps.config.allowedOrigins, deps.config.trustedProxyHops));
  app.use(createAuthRouter(deps, trpcDeps, readLimit));
  app.use(createImageRouter(deps, readLimit));
  app.use(createInventoryExportRouter(deps, readLimit));
  app.use(notFoundHandler);
  app.use(errorMiddleware);
  return app;
}
