// Re-adds the queue message of every open staging job: the manual form of the worker's repair
// dispatcher, e.g. after Redis lost its data. Reads the worker's environment (same DATABASE_URL,
// VALKEY_URL and QUEUE_SUFFIX as the worker), prints the counts as one JSON line on stdout.
//
//   cd packages/services && npx tsx src/staging/repair-queue-cli.ts
import { loadConfigOrExit } from '@staging/config/load';
import { createDb } from '@staging/db/client';
import { createLogger } from '@staging/platform/logger';
import { createRedis, waitForRedis } from '@staging/platform/queues';
import { repairStagingQueue } from './repair-queue';
import { createStagingQueue } from './staging-queue';

const config = loadConfigOrExit('worker');
const logger = createLogger({ service: 'staging-repair-queue', level: config.logLevel });
const db = createDb(config.databaseUrl, { maxConnections: 2 });
const redis = createRedis(config.valkeyUrl, { role: 'producer', connectionName: 'staging-repair-queue' });
const queue = createStagingQueue(redis, config.queueSuffix);

let exitCode = 0;
try {
  await waitForRedis(redis);
  const counts = await repairStagingQueue({ db, stagingQueue: queue, logger });
  process.stdout.write(`${JSON.stringify({ queue: queue.name, ...counts })}\n`);
  if (counts.errors > 0) exitCode = 1;
} catch (error) {
  logger.error({ event: 'ai_room_staging.queue_repair_failed', err: error }, 'queue repair failed');
  exitCode = 1;
} finally {
  await queue.close();
  redis.disconnect();
  await db.$disconnect();
}
process.exit(exitCode);
