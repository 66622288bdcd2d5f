// A stand-in service for fatal-error.integration.test.ts: starts the error tracker (DSN from the
// environment), installs the fatal-error policy and fails the way argv[2] says.
import { initErrorTracker, reportFatalError } from '../error-tracker';
import { exitOnFatalError } from '../fatal-error';
import { createLogger } from '../logger';

const mode = process.argv[2];
const logger = createLogger({ service: 'fatal-test', level: 'info' });
initErrorTracker({ dsn: process.env['TEST_SENTRY_DSN'], environment: 'test', release: 'r-1', service: 'fatal-test', logger });
// Like a listening server: only the policy may end this process.
const keepAlive = setInterval(() => undefined, 60_000);
exitOnFatalError({
  logger,
  // In `report` mode the process ends on its own (exit code 0) once the rejection was reported.
  report: async (error, origin) => {
    await reportFatalError(error, origin);
    if (mode === 'reject-report') clearInterval(keepAlive);
  },
  unhandledRejection: mode === 'reject-report' ? 'report' : 'exit',
});

if (mode === 'client-abort') {
  setTimeout(() => {
    // What Node's HTTP server raises when a client hangs up mid-body, as Next.js rethrows it.
    throw Object.assign(new Error('aborted'), { code: 'ECONNRESET' });
  }, 0);
  // The process is still up after it: it ends on its own, with code 0.
  setTimeout(() => clearInterval(keepAlive), 200);
} else if (mode === 'throw') {
  setTimeout(() => {
    throw new Error('thrown and not caught');
  }, 0);
} else {
  void Promise.reject(new Error('rejected and not handled'));
}
