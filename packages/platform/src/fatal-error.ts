import type { Logger } from './logger';

export type FatalOrigin = 'uncaughtException' | 'unhandledRejection';

/**
 * Sentry's default integrations that also listen for these two events. They are removed wherever
 * the SDK is started, so an error is captured once (by the policy below) and the SDK does not make
 * its own exit decision.
 */
export const SENTRY_PROCESS_HANDLER_INTEGRATIONS: readonly string[] = ['OnUncaughtException', 'OnUnhandledRejection'];

/**
 * How an error nothing caught goes to Sentry (`captureException`'s hint): unhandled, and fatal
 * when the process exits because of it.
 */
export function uncaughtErrorHint(origin: FatalOrigin, exits: boolean) {
  return { captureContext: { level: exits ? ('fatal' as const) : ('error' as const) }, mechanism: { handled: false, type: `auto.node.${origin}` } };
}

/**
 * Node's HTTP server destroys the request of a client that went away mid-body with
 * `Error: aborted` (code ECONNRESET); a framework that listens on the request and throws it on
 * (Next.js's server does, for a body nobody read) turns it into an uncaught exception. It says
 * that one client left, nothing about this process's state, so it must not end the process: any
 * client could end it at will by cutting a request short.
 */
export function isClientAbort(error: unknown): boolean {
  return error instanceof Error && error.message === 'aborted' && 'code' in error && error.code === 'ECONNRESET';
}

/** Longest the error tracker may take to send the error before the process exits anyway. */
const REPORT_TIMEOUT_MS = 5_000;

export interface ExitOnFatalErrorOptions {
  logger: Logger;
  /** Captures the error in the error tracker and resolves once it was sent (or sending gave up). */
  report: (error: unknown, origin: FatalOrigin) => Promise<unknown>;
  /**
   * `exit` (the default) treats an unhandled rejection like an uncaught exception. `report` only
   * logs and reports it: for a runtime that leaves rejected promises unawaited by design.
   */
  unhandledRejection?: 'exit' | 'report';
}

/**
 * The one policy of every service for an error nothing caught: after one, the process state is
 * unknown, so it logs the error at fatal level, sends it to the error tracker, and exits with
 * code 1 for its supervisor (`npm start`, compose, the orchestrator) to start a fresh one.
 */
export function exitOnFatalError(options: ExitOnFatalErrorOptions): void {
  const { logger, report } = options;
  let exiting = false;

  const onFatal = (origin: FatalOrigin) => (error: unknown) => {
    if (isClientAbort(error)) {
      logger.warn({ event: 'client_aborted', origin }, 'a client went away in the middle of its request');
      return;
    }
    if (exiting) {
      logger.error({ event: 'fatal_error_while_exiting', origin, err: error }, `${origin} while exiting`);
      return;
    }
    exiting = true;
    process.exitCode = 1;
    logger.fatal({ event: 'fatal_error', origin, err: error }, `${origin}; exiting`);
    // A tracker that never answers must not keep a broken process alive.
    setTimeout(() => process.exit(1), REPORT_TIMEOUT_MS);
    void report(error, origin)
      .catch((reportError: unknown) => logger.error({ err: reportError }, 'could not report the fatal error'))
      .finally(() => process.exit(1));
  };

  process.on('uncaughtException', onFatal('uncaughtException'));
  if (options.unhandledRejection === 'report') {
    process.on('unhandledRejection', (error) => {
      logger.error({ event: 'unhandled_rejection', err: error }, 'unhandledRejection');
      void report(error, 'unhandledRejection').catch((reportError: unknown) =>
        logger.error({ err: reportError }, 'could not report the unhandled rejection'),
      );
    });
  } else {
    process.on('unhandledRejection', onFatal('unhandledRejection'));
  }
}
