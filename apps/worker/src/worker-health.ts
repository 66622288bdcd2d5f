import type { WorkerConfig } from '@staging/config/worker';
import type { Db } from '@staging/db/client';
import type { Logger } from '@staging/platform/logger';
import type { Redis } from 'ioredis';
import type { DashboardQueues } from './dashboard/dashboard-queues';
import { createDashboardRouter } from './dashboard/dashboard-router';
import { startHealthServer } from './http/health-server';
import type { HealthServer } from './http/health-server';

/** /healthz and /readyz (database, Redis, accepting work), with the queue dashboard when configured. */
export function startWorkerHealthServer(
  config: WorkerConfig,
  {
    db,
    redis,
    dashboardQueues,
    logger,
    isAccepting,
  }: { db: Db; redis: Redis; dashboardQueues: DashboardQueues; logger: Logger; isAccepting: () => boolean },
): Promise<HealthServer> {
  return startHealthServer({
    port: config.port,
    logger,
    isAccepting,
    readinessChecks: {
      database: async () => {
        await db.$queryRaw`SELECT 1`;
      },
      redis: async () => {
        await redis.ping();
      },
    },
    ...(config.dashboard === undefined
      ? {}
      : {
          dashboard: createDashboardRouter({
            config: config.dashboard,
            queues: dashboardQueues.queues,
            redis,
            queueSuffix: config.queueSuffix,
            logger,
          }),
        }),
  });
}
