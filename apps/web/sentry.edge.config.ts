// Error tracking for code on the edge runtime, loaded by src/instrumentation.ts. Only the DSN,
// environment and release are read here (the full web configuration needs Node.js); off without
// SENTRY_DSN.
import * as Sentry from '@sentry/nextjs';
import { scrubValue } from '@staging/platform/scrub';

const dsn = process.env.SENTRY_DSN;
if (dsn !== undefined && dsn !== '') {
  Sentry.init({
    dsn,
    environment: process.env.SENTRY_ENVIRONMENT ?? process.env.NODE_ENV,
    release: process.env.RELEASE ?? 'dev',
    sendDefaultPii: false,
    tracesSampleRate: 0,
    beforeSend: (event) => scrubValue(event) as typeof event,
    initialScope: { tags: { service: 'web-edge' } },
  });
}
