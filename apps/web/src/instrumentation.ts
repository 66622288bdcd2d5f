// Next.js server start-up hook: error tracking per runtime, the fatal-error policy of every
// service (an uncaught exception is logged, reported and ends the process), and the producer
// fingerprint (docs/system.md 2.9: web, api and worker publish theirs so the worker can compare them
// while the legacy bridge exists). Node-only code is imported inside the NEXT_RUNTIME checks so
// the edge bundle never contains it.
import { captureRequestError } from '@sentry/nextjs';

export const onRequestError = captureRequestError;

export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME === 'nodejs') {
    await import('../sentry.server.config');
    // `next build` also runs this hook; a build is no server and has no deployment to publish for.
    if (process.env.NEXT_PHASE !== 'phase-production-build') {
      const { startNodeRuntime } = await import('./instrumentation-node');
      startNodeRuntime();
    }
  }
  if (process.env.NEXT_RUNTIME === 'edge') {
    await import('../sentry.edge.config');
  }
}
