import type { HealthServer } from './http/health-server';
import type { StagingConsumer } from './staging/staging-consumer';
import type { MaintenanceLoops } from './worker-loops';
import type { WorkerOperations } from './worker-operations';
import type { WorkerResources } from './worker-resources';

const CLOSE_STEP_TIMEOUT_MS = 3_000;

/**
 * The graceful stop, in order: the staging consumer drains (or parks) within `graceMs`, then the
 * loops, the other consumers, the queue, the HTTP server and the connections close. Resources
 * injected by a test are left open for it.
 */
export async function shutDownWorker(
  { queue, redis, storage, db, logger }: WorkerResources,
  {
    consumer,
    graceMs,
    loops,
    operations,
    http,
    ownsStorage,
    ownsDb,
  }: {
    consumer: StagingConsumer;
    graceMs: number;
    loops: MaintenanceLoops;
    operations: WorkerOperations;
    http: HealthServer | null;
    /** The app opened the storage (no test injected it), so it closes it. */
    ownsStorage: boolean;
    /** The app opened the database pool, so it disconnects it. */
    ownsDb: boolean;
  },
): Promise<{ drained: boolean }> {
  const result = await consumer.stop(graceMs);
  // Every later step is bounded too: with Redis unreachable, commands wait for a reconnect
  // forever (maxRetriesPerRequest null), and a stop must still end.
  await settleWithin(Promise.all([loops.dispatcher.stop(), loops.outbox.stop(), loops.orphans.stop()]), CLOSE_STEP_TIMEOUT_MS);
  await settleWithin(operations.stop(), CLOSE_STEP_TIMEOUT_MS);
  await settleWithin(queue.close(), CLOSE_STEP_TIMEOUT_MS);
  await http?.close();
  if (!(await settleWithin(redis.quit(), CLOSE_STEP_TIMEOUT_MS))) redis.disconnect();
  if (ownsStorage) storage.close();
  if (ownsDb) await db.$disconnect();
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
