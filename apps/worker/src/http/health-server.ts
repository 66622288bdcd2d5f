import type { Server } from 'node:http';
import express from 'express';
import type { ErrorRequestHandler, Express, Router } from 'express';
import { createServiceHttpServer, listeningPort } from '@staging/platform/http-client-errors';
import type { Logger } from '@staging/platform/logger';
import { checkReadiness } from '@staging/platform/readiness';
import type { ReadinessCheck } from '@staging/platform/readiness';
import { securityHeaders } from '@staging/platform/security-headers';
import { DASHBOARD_PATH } from '../dashboard/dashboard-router';

export interface HealthServerOptions {
  port: number;
  logger: Logger;
  /** Each check resolves when the dependency answers; a rejection makes /readyz 503. */
  readinessChecks: Record<string, ReadinessCheck>;
  /** True while the process accepts work; false once shutdown began (/readyz check `consumer`). */
  isAccepting: () => boolean;
  /** Queue dashboard (createDashboardRouter), only with both credentials (docs/system.md 5.5). */
  dashboard?: Router;
}

export interface HealthServer {
  port: number;
  close(): Promise<void>;
}

/**
 * Anything a route or bull-board throws: a path it could not percent-decode is the client's
 * mistake (400), anything else ours (500); both with the api's JSON error body, never Express's
 * HTML page with a stack.
 */
function errorMiddleware(logger: Logger): ErrorRequestHandler {
  return (error: unknown, _req, res, _next) => {
  if (res.headersSent) return;
  if (error instanceof URIError) {
    res.status(400).json({ error: { code: 'BAD_REQUEST', message: 'Malformed percent-encoding in the path' } });
    return;
  }
  const status = typeof error === 'object' && error !== null && 'status' in error ? error.status : undefined;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    res.status(status).json({ error: { code: 'BAD_REQUEST', message: 'Malformed request' } });
    return;
  }
  logger.error({ err: error }, 'worker http route failed');
  res.status(500).json({ error: { code: 'INTERNAL', message: 'Internal error' } });
  };
}

/**
 * GET /healthz (the process is alive), GET /readyz (database and Redis answer and the consumer
 * runs; `@staging/platform/readiness`) and, when configured, the bull-board dashboard under
 * /admin/queues behind basic auth.
 */
export function createHealthApp(options: Omit<HealthServerOptions, 'port'>): Express {
  const app = express();
  app.disable('x-powered-by');
  app.use(securityHeaders);
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', async (_req, res) => {
    const readiness = await checkReadiness({
      ...options.readinessChecks,
      consumer: async () => {
        if (!options.isAccepting()) throw new Error('not consuming');
      },
    });
    res.setHeader('Cache-Control', 'no-store');
    res.status(readiness.status === 'ready' ? 200 : 503).json(readiness);
  });
  if (options.dashboard !== undefined) app.use(DASHBOARD_PATH, options.dashboard);
  app.use((_req, res) => {
    res.status(404).json({ error: { code: 'NOT_FOUND', message: 'Not found' } });
  });
  app.use(errorMiddleware(options.logger));
  return app;
}

/** Serves {@link createHealthApp} on `options.port`. */
export async function startHealthServer(options: HealthServerOptions): Promise<HealthServer> {
  const app = createHealthApp(options);
  const server: Server = createServiceHttpServer(app);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, () => resolve());
  });
  const port = listeningPort(server);
  options.logger.info({ port }, 'worker health server listening');
  return {
    port,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
