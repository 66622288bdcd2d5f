import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import type { Queue } from 'bullmq';
import { Router } from 'express';
import type { Express, NextFunction, Request, Response } from 'express';
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis } from 'rate-limiter-flexible';
import type { DashboardConfig } from '@staging/config/worker';
import type { Logger } from '@staging/platform/logger';
import { createBasicAuth, DASHBOARD_AUTH_FAILURES } from './basic-auth';

/** Where the health server mounts the router; bull-board builds its links from it. */
export const DASHBOARD_PATH = '/admin/queues';

const READ_METHODS = new Set(['GET', 'HEAD']);

/**
 * The bull-board dashboard behind basic auth (docs/system.md 5.5), read-only unless
 * QUEUE_DASHBOARD_WRITES=enabled. Read-only is enforced twice: bull-board's `readOnlyMode` hides
 * the buttons and answers 405 on its per-queue actions, but its pause-all and resume-all answer
 * 200 and any route a later bull-board adds is only as read-only as its handler; so every request
 * that is not a read is refused here before bull-board sees it.
 */
export function createDashboardRouter(options: {
  config: DashboardConfig;
  queues: Queue[];
  redis: Redis;
  queueSuffix: string;
  logger: Logger;
}): Router {
  const { config } = options;
  const serverAdapter = new ExpressAdapter();
  serverAdapter.setBasePath(DASHBOARD_PATH);
  // @bull-board/express pins a sibling patch release of @bull-board/api; the adapter contract is
  // the same, only the duplicated private declarations make the types disagree.
  type BoardOptions = Parameters<typeof createBullBoard>[0];
  createBullBoard({
    queues: options.queues.map((q) => new BullMQAdapter(q, { readOnlyMode: !config.writesEnabled })),
    serverAdapter: serverAdapter as unknown as BoardOptions['serverAdapter'],
  });
  const board = serverAdapter.getRouter() as Express;
  // bull-board answers from an Express app of its own, which announces itself unless told not to.
  board.disable('x-powered-by');

  const limiterOptions = { points: DASHBOARD_AUTH_FAILURES.points, duration: DASHBOARD_AUTH_FAILURES.windowSeconds };
  const failures = new RateLimiterRedis({
    ...limiterOptions,
    storeClient: options.redis,
    // Shared by every worker replica on the namespace, so more replicas do not mean more guesses.
    keyPrefix: `rl:queue-dashboard-auth${options.queueSuffix}`,
    // Without Redis the count goes on in this process instead of waiting in ioredis's queue.
    rejectIfRedisNotReady: true,
    insuranceLimiter: new RateLimiterMemory(limiterOptions),
  });

  const router = Router();
  router.use(createBasicAuth({ user: config.user, password: config.password, failures, logger: options.logger }));
  if (!config.writesEnabled) router.use(refuseWrites);
  router.use(board);
  return router;
}

function refuseWrites(req: Request, res: Response, next: NextFunction): void {
  if (READ_METHODS.has(req.method)) {
    next();
    return;
  }
  res.status(403).json({
    error: { code: 'FORBIDDEN', message: 'The queue dashboard is read-only (QUEUE_DASHBOARD_WRITES is not enabled)' },
  });
}
