import { loadConfigOrExit } from '@staging/config/load';
import { captureAlert, flushErrorTracker, initErrorTracker, reportFatalError } from '@staging/platform/error-tracker';
import { exitOnFatalError } from '@staging/platform/fatal-error';
import { createLogger } from '@staging/platform/logger';
import { createWorkerApp } from './create-worker-app';
import type { WorkerApp } from './create-worker-app';
import { parseTestHooks } from './testing/test-hooks';

/**
 * The worker process: config, logger, error tracker, the app, and a graceful stop on the first
 * signal. main.ts latches signals before this module (and everything it imports) loads.
 */
export async function runWorkerProcess(options: { whenSignaled: (handler: (signal: string) => void) => void }): Promise<void> {
  const config = loadConfigOrExit('worker');
  const logger = createLogger({ service: 'worker', level: config.logLevel });
  initErrorTracker({ ...config.sentry, service: 'worker', logger });
  exitOnFatalError({ logger, report: reportFatalError });
  for (const warning of config.warnings) logger.warn({ warning }, 'configuration warning');

  const hooks = parseTestHooks(process.argv.slice(2));
  if (hooks !== null) logger.warn('test hooks enabled from the command line');

  let app: WorkerApp | null = null;
  async function shutdown(signal: string): Promise<void> {
    logger.info({ signal, booting: app === null }, 'shutting down');
    if (app === null) return; // the boot below stops as soon as it is done
    try {
      const { drained } = await app.stop();
      await flushErrorTracker();
      process.exit(drained ? 0 : 1);
    } catch (error) {
      logger.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  }
  let signaled: string | null = null;
  options.whenSignaled((signal) => {
    signaled = signal;
    void shutdown(signal);
  });

  if (hooks?.bootDelayMs !== undefined) await new Promise((resolve) => setTimeout(resolve, hooks.bootDelayMs));
  app = await createWorkerApp(config, {
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
  if (signaled !== null) await shutdown(signaled);
}
