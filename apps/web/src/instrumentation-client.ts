// Browser error tracking; on only when NEXT_PUBLIC_SENTRY_DSN was set at build time. No session
// replay and no tracing: the dashboard shows listing data, and errors are what operators need.
import * as Sentry from '@sentry/nextjs';

const dsn = process.env.NEXT_PUBLIC_SENTRY_DSN;
if (dsn !== undefined && dsn !== '') {
  Sentry.init({
    dsn,
    sendDefaultPii: false,
    tracesSampleRate: 0,
    initialScope: { tags: { service: 'web-browser' } },
  });
}
