import type { WorkerConfig } from '@staging/config/worker';
import type { DashboardQueues } from './dashboard/dashboard-queues';
import { createDashboardRouter } from './dashboard/dashboard-router';
import { startHealthServer } from './http/health-server';
import type { HealthServer } from './http/health-server';
import type { WorkerResources } from './worker-resources';

/** /healthz and /readyz (database, Redis, accepting work), with the queue dashboard when configured. */
export function startWorkerHealthServer(
  config: WorkerConfig,
  { db, redis, logger }: Pick<WorkerResources, 'db' | 'redis' | 'logger'>,
  { dashboardQueues, isAccepting }: { dashboardQueues: DashboardQueues; isAccepting: () => boolean },
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
