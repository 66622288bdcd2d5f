// Next.js server start-up hook: error tracking per runtime, and the web runtime's producer
// fingerprint (docs/system.md 2.9: web, api and worker publish theirs so the worker can compare them
// while the legacy bridge exists). Node-only code is imported inside the NEXT_RUNTIME checks so
// the edge bundle never contains it.
import { captureRequestError } from '@sentry/nextjs';

export const onRequestError = captureRequestError;

export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME === 'nodejs') {
    await import('../sentry.server.config');
    // `next build` also runs this hook; a build has no deployment to publish for.
    if (process.env.NEXT_PHASE !== 'phase-production-build') {
      const { startProducerParityPublisher } = await import('./instrumentation-node');
      startProducerParityPublisher();
    }
  }
  if (process.env.NEXT_RUNTIME === 'edge') {
    await import('../sentry.edge.config');
  }
}
