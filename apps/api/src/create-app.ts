import express from 'express';
import type { Express } from 'express';
import { createTrpcNodeHandler, TRPC_ENDPOINT } from '@staging/trpc/http';
import type { TrpcDeps } from '@staging/trpc/context';
import type { ApiDeps } from './api-deps';
import { errorMiddleware, notFoundHandler } from './http/errors';
import { createOriginCheck } from './http/origin-check';
import { clientAddressOf, createReadLimit } from './http/read-limits';
import { createRequestLogger } from './http/request-logging';
import { securityHeaders } from './http/security-headers';
import { createAuthRouter } from './routes/auth';
import { createDerivativeRouter } from './routes/derivatives';
import { createHealthRouter } from './routes/health';
import { createImageRouter } from './routes/images';
import { createProviderWebhookRouter } from './routes/provider-webhook';
import { createPublicRouter } from './routes/public';
import type { ProviderCallbackRecorder } from './webhooks/record-provider-callback';

/**
 * Proxies trusted for X-Forwarded-For (client IP for the login and read limits): loopback and private
 * networks, where a load balancer or ingress sits; a client on the internet cannot spoof its IP
 * by sending the header itself (docs/decisions.md "Trusted proxies").
 */
export const TRUST_PROXY = 'loopback, linklocal, uniquelocal';

/** The tRPC deps of this process, derived from the api's own. */
export function toTrpcDeps(deps: ApiDeps): TrpcDeps {
  return {
    db: deps.db,
    redis: deps.redis,
    logger: deps.logger,
    clock: () => deps.clock.now(),
    queueSuffix: deps.config.queueSuffix,
    allowedOrigins: deps.config.allowedOrigins,
    ...(deps.requestLimitOverrides === undefined ? {} : { requestLimitOverrides: deps.requestLimitOverrides }),
    stagingQueue: deps.stagingQueue,
    searchQueue: deps.searchQueue,
    staging: {
      enabled: deps.config.stagingEnabled,
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
  app.set('trust proxy', TRUST_PROXY);
  app.set('etag', false);
  app.use(securityHeaders);

  const trpcDeps = toTrpcDeps(deps);
  const readLimit = createReadLimit(deps, trpcDeps);
  app.use(createRequestLogger(deps.logger));
  app.use(createHealthRouter(deps));
  app.use(createProviderWebhookRouter(deps, recordCallback));
  // tRPC applies its own cross-site guard to cookie-authenticated mutations.
  app.use(TRPC_ENDPOINT, createTrpcNodeHandler(trpcDeps, { clientAddress: clientAddressOf }));
  app.use(createPublicRouter(deps, readLimit));
  app.use(createDerivativeRouter(deps, readLimit));
  app.use('/api', createOriginCheck(deps.config.allowedOrigins));
  app.use(createAuthRouter(deps, trpcDeps, readLimit));
  app.use(createImageRouter(deps, readLimit));
  app.use(notFoundHandler);
  app.use(errorMiddleware);
  return app;
}
