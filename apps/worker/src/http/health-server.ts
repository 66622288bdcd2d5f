import { timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import type { Queue } from 'bullmq';
import express from 'express';
import type { NextFunction, Request, Response } from 'express';
import type { DashboardConfig } from '@staging/config/worker';
import type { Logger } from '@staging/platform/logger';

export interface HealthServerOptions {
  port: number;
  logger: Logger;
  /** Each check resolves when the dependency answers; a rejection makes /readyz 503. */
  readinessChecks: Record<string, () => Promise<void>>;
  /** True while the process accepts work; false once shutdown began. */
  isAccepting: () => boolean;
  /** Queue dashboard, only with both credentials (docs/system.md 5.5). */
  dashboard?: { credentials: DashboardConfig; queues: Queue[] };
}

export interface HealthServer {
  port: number;
  close(): Promise<void>;
}

const READY_CHECK_TIMEOUT_MS = 2_000;

/**
 * GET /healthz (the process is alive), GET /readyz (database, Redis and consumers answer) and,
 * when configured, the bull-board dashboard under /admin/queues behind basic auth.
 */
export async function startHealthServer(options: HealthServerOptions): Promise<HealthServer> {
  const app = express();
  app.disable('x-powered-by');
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', async (_req, res) => {
    const results: Record<string, 'ok' | 'failed'> = {};
    await Promise.all(
      Object.entries(options.readinessChecks).map(async ([name, check]) => {
        try {
          await withTimeout(check(), READY_CHECK_TIMEOUT_MS);
          results[name] = 'ok';
        } catch {
          results[name] = 'failed';
        }
      }),
    );
    const accepting = options.isAccepting();
    const ready = accepting && Object.values(results).every((r) => r === 'ok');
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'not_ready', accepting, checks: results });
  });
  if (options.dashboard !== undefined) {
    const serverAdapter = new ExpressAdapter();
    serverAdapter.setBasePath('/admin/queues');
    // @bull-board/express pins a sibling patch release of @bull-board/api; the adapter contract is
    // the same, only the duplicated private declarations make the types disagree.
    type BoardOptions = Parameters<typeof createBullBoard>[0];
    createBullBoard({
      queues: options.dashboard.queues.map((q) => new BullMQAdapter(q)),
      serverAdapter: serverAdapter as unknown as BoardOptions['serverAdapter'],
    });
    app.use('/admin/queues', basicAuth(options.dashboard.credentials), serverAdapter.getRouter());
  }
  app.use((_req, res) => {
    res.status(404).json({ error: { code: 'NOT_FOUND', message: 'Not found' } });
  });

  const server: Server = createServer(app);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  options.logger.info({ port }, 'worker health server listening');
  return {
    port,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function basicAuth(credentials: DashboardConfig) {
  const expected = Buffer.from(`${credentials.user}:${credentials.password}`);
  return (req: Request, res: Response, next: NextFunction): void => {
    const header = req.headers.authorization ?? '';
    const given = header.startsWith('Basic ') ? Buffer.from(header.slice(6), 'base64') : Buffer.alloc(0);
    if (given.length === expected.length && timingSafeEqual(given, expected)) {
      next();
      return;
    }
    res.setHeader('WWW-Authenticate', 'Basic realm="queues"');
    res.status(401).json({ error: { code: 'UNAUTHORIZED', message: 'Authentication required' } });
  };
}

async function withTimeout(promise: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      promise,
      new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('timeout')), ms))),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
