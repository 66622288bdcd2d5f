import express from 'express';
import type { Router } from 'express';
import type { ApiDeps } from '../api-deps';
import { methodNotAllowed } from '../http/errors';

const CHECK_TIMEOUT_MS = 2_000;

async function check(name: string, probe: () => Promise<unknown>): Promise<[string, 'ok' | 'error']> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${name} check timed out`)), CHECK_TIMEOUT_MS);
  });
  try {
    await Promise.race([probe(), deadline]);
    return [name, 'ok'];
  } catch {
    return [name, 'error'];
  } finally {
    clearTimeout(timer);
  }
}

/**
 * /healthz: the process is up and serving (liveness; no dependency is touched, so a database
 * outage does not get the process restarted). /readyz: Postgres and Redis answer (readiness;
 * a 503 takes the instance out of the load balancer until they do). Error details stay in logs.
 */
export function createHealthRouter(deps: ApiDeps): Router {
  const router = express.Router();
  router.get('/healthz', (_req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    res.json({ status: 'ok' });
  });
  router.all('/healthz', methodNotAllowed(['GET']));

  router.get('/readyz', async (_req, res) => {
    const results = await Promise.all([
      check('postgres', () => deps.db.$queryRaw`SELECT 1`),
      check('redis', () => deps.redis.ping()),
    ]);
    const checks = Object.fromEntries(results);
    const ready = results.every(([, state]) => state === 'ok');
    res.setHeader('Cache-Control', 'no-store');
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'unavailable', checks });
  });
  router.all('/readyz', methodNotAllowed(['GET']));
  return router;
}
