import { loadConfigOrExit } from '@staging/config/load';
import { captureAlert, flushErrorTracker, initErrorTracker } from '@staging/platform/error-tracker';
import { createLogger } from '@staging/platform/logger';
import { createWorkerApp } from './create-worker-app';
import { parseTestHooks } from './testing/test-hooks';

const config = loadConfigOrExit('worker');
const logger = createLogger({ service: 'worker', level: config.logLevel });
initErrorTracker({ ...config.sentry, service: 'worker', logger });
for (const warning of config.warnings) logger.warn({ warning }, 'configuration warning');

const hooks = parseTestHooks(process.argv.slice(2));
if (hooks !== null) logger.warn('test hooks enabled from the command line');

const app = await createWorkerApp(config, {
  logger,
  captureAlert,
  ...(hooks === null
    ? {}
    : {
        boundary: hooks.boundary,
        timings: hooks.timings,
        consumer: hooks.consumer,
        repairIntervalMs: hooks.loops.repairIntervalMs,
        shutdownGraceMs: hooks.shutdownGraceMs,
      }),
});

let shuttingDown = false;
async function shutdown(signal: string): Promise<void> {
  if (shuttingDown) return;
  shuttingDown = true;
  logger.info({ signal }, 'shutting down');
  try {
    const { drained } = await app.stop();
    await flushErrorTracker();
    process.exit(drained ? 0 : 1);
  } catch (error) {
    logger.error({ err: error }, 'shutdown failed');
    process.exit(1);
  }
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('unhandledRejection', (error) => logger.error({ err: error }, 'unhandled rejection'));
