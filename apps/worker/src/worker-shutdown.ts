import type { Db } from '@staging/db/client';
import type { Logger } from '@staging/platform/logger';
import type { ObjectStorage } from '@staging/platform/storage';
import type { StagingQueue } from '@staging/services/staging/staging-queue';
import type { Redis } from 'ioredis';
import type { HealthServer } from './http/health-server';
import type { StagingConsumer } from './staging/staging-consumer';
import type { MaintenanceLoops } from './worker-loops';
import type { WorkerOperations } from './worker-operations';

const CLOSE_STEP_TIMEOUT_MS = 3_000;

/**
 * The graceful stop, in order: the staging consumer drains (or parks) within `graceMs`, then the
 * loops, the other consumers, the queue, the HTTP server and the connections close. Resources
 * injected by a test (`storage`, `db` undefined here) are left open for it.
 */
export async function shutDownWorker({
  consumer,
  graceMs,
  loops,
  operations,
  queue,
  http,
  redis,
  storage,
  db,
  logger,
}: {
  consumer: StagingConsumer;
  graceMs: number;
  loops: MaintenanceLoops;
  operations: WorkerOperations;
  queue: StagingQueue;
  http: HealthServer | null;
  redis: Redis;
  /** Closed here: the app opened it. */
  storage: ObjectStorage | undefined;
  /** Disconnected here: the app opened it. */
  db: Db | undefined;
  logger: Logger;
}): Promise<{ drained: boolean }> {
  const result = await consumer.stop(graceMs);
  // Every later step is bounded too: with Redis unreachable, commands wait for a reconnect
  // forever (maxRetriesPerRequest null), and a stop must still end.
  await settleWithin(Promise.all([loops.dispatcher.stop(), loops.outbox.stop(), loops.orphans.stop()]), CLOSE_STEP_TIMEOUT_MS);
  await settleWithin(operations.stop(), CLOSE_STEP_TIMEOUT_MS);
  await settleWithin(queue.close(), CLOSE_STEP_TIMEOUT_MS);
  await http?.close();
  if (!(await settleWithin(redis.quit(), CLOSE_STEP_TIMEOUT_MS))) redis.disconnect();
  storage?.close();
  await db?.$disconnect();
  logger.info({ drained: result.drained }, 'worker stopped');
  return result;
}

/** Waits for `promise` at most `ms`; true when it settled (fulfilled or rejected) in time. */
async function settleWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const settled = promise.then(
    () => true,
    () => true,
  );
  const timedOut = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([settled, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}
