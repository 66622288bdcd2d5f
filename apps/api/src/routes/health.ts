import express from 'express';
import type { Router } from 'express';
import { checkReadiness } from '@staging/platform/readiness';
import type { ApiDeps } from '../api-deps';
import { methodNotAllowed } from '../http/errors';

/**
 * /healthz: the process is up and serving (liveness; no dependency is touched, so a database
 * outage does not get the process restarted). /readyz: Postgres and Redis answer (readiness;
 * a 503 takes the instance out of the load balancer until they do), in the words every service's
 * /readyz uses (`@staging/platform/readiness`).
 */
export function createHealthRouter(deps: ApiDeps): Router {
  const router = express.Router();
  router.get('/healthz', (_req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    res.json({ status: 'ok' });
  });
  router.all('/healthz', methodNotAllowed(['GET']));

  router.get('/readyz', async (_req, res) => {
    const readiness = await checkReadiness({
      database: () => deps.db.$queryRaw`SELECT 1`,
      redis: () => deps.redis.ping(),
    });
    res.setHeader('Cache-Control', 'no-store');
    res.status(readiness.status === 'ready' ? 200 : 503).json(readiness);
  });
  router.all('/readyz', methodNotAllowed(['GET']));
  return router;
}
