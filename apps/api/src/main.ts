import { loadConfigOrExit } from '@staging/config/load';
import { producerValuesFingerprint } from '@staging/config/producer-values';
import { createDb } from '@staging/db/client';
import { flushErrorTracker, initErrorTracker, reportFatalError } from '@staging/platform/error-tracker';
import { exitOnFatalError } from '@staging/platform/fatal-error';
import { listeningPort } from '@staging/platform/http-client-errors';
import { createLogger } from '@staging/platform/logger';
import { createRedis } from '@staging/platform/queues';
import { createObjectStorage } from '@staging/platform/storage';
import { createStagingEventHub } from '@staging/services/live/staging-event-hub';
import { startProducerFingerprintPublisher } from '@staging/services/parity/producer-parity';
import { createSearchQueue } from '@staging/services/search/search-queue';
import { systemClock } from '@staging/services/staging/staging-deps';
import { createStagingQueue } from '@staging/services/staging/staging-queue';
import type { ApiDeps } from './api-deps';
import { createApiServer } from './create-server';

/** Longest a shutdown waits for in-flight requests before closing connections anyway. */
const SHUTDOWN_GRACE_MS = 10_000;

const config = loadConfigOrExit('api');
const logger = createLogger({ service: 'api', level: config.logLevel });
initErrorTracker({ ...config.sentry, service: 'api', logger });
exitOnFatalError({ logger, report: reportFatalError });

const db = createDb(config.databaseUrl);
const redis = createRedis(config.valkeyUrl, {
  role: 'producer',
  connectionName: 'api',
  onError: (error) => logger.warn({ err: error }, 'queue store connection error'),
});
const stagingQueue = createStagingQueue(redis, config.queueSuffix);
const searchQueue = createSearchQueue(redis, config.queueSuffix);
const storage = createObjectStorage(config.storage);
// The legacy bridge materializes jobs from the worker's producer values, so every producer
// publishes its own and the worker alerts on a mismatch (docs/system.md 2.9).
const parity = startProducerFingerprintPublisher({ redis, role: 'api', values: config.producer, queueSuffix: config.queueSuffix, logger });
const stagingEvents = createStagingEventHub({ db, logger });
const deps: ApiDeps = { config, db, redis, stagingQueue, searchQueue, storage, stagingEvents, logger, clock: systemClock };

const server = createApiServer(deps);
server.listen(config.port, () => {
  logger.info(
    {
      event: 'api_started',
      // The bound port, which differs from config.port when that is 0 (a free port, in tests).
      port: listeningPort(server),
      queueSuffix: config.queueSuffix,
      stagingEnabled: config.stagingEnabled,
      producerValues: producerValuesFingerprint(config.producer),
    },
    'api listening',
  );
});

let shuttingDown = false;
async function shutdown(signal: string): Promise<void> {
  if (shuttingDown) return;
  shuttingDown = true;
  logger.info({ event: 'api_stopping', signal }, 'api stopping');
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  // Live streams never go idle: ending them lets the server close without waiting out the grace.
  await stagingEvents.close();
  const grace = setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS);
  await closed;
  clearTimeout(grace);
  await Promise.allSettled([stagingQueue.close(), searchQueue.close(), parity.stop()]);
  await Promise.allSettled([redis.quit(), db.$disconnect()]);
  storage.close();
  await flushErrorTracker();
  logger.info({ event: 'api_stopped' }, 'api stopped');
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
