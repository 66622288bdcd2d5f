// Error tracking of the web runtime's server side (Node.js), loaded by src/instrumentation.ts.
// Off without SENTRY_DSN, like api and worker; environment and release go on every event and
// credentials are scrubbed before anything leaves the process (docs/system.md 6).
import * as Sentry from '@sentry/nextjs';
import type { ErrorEvent } from '@sentry/nextjs';
import { parseWebEnv } from '@staging/config/web';
import { SENTRY_PROCESS_HANDLER_INTEGRATIONS } from '@staging/platform/fatal-error';
import { scrubValue } from '@staging/platform/scrub';

function scrubEvent(event: ErrorEvent): ErrorEvent {
  const scrubbed = scrubValue(event) as ErrorEvent;
  if (scrubbed.request !== undefined) {
    delete scrubbed.request.query_string;
    delete scrubbed.request.cookies;
  }
  return scrubbed;
}

try {
  const { sentry } = parseWebEnv(process.env);
  if (sentry.dsn !== undefined) {
    Sentry.init({
      dsn: sentry.dsn,
      environment: sentry.environment,
      release: sentry.release,
      sendDefaultPii: false,
      tracesSampleRate: 0,
      // Uncaught errors are captured by the fatal-error policy (src/instrumentation-node.ts).
      integrations: (defaults) => defaults.filter((integration) => !SENTRY_PROCESS_HANDLER_INTEGRATIONS.includes(integration.name)),
      beforeSend: scrubEvent,
      beforeBreadcrumb: (breadcrumb) => scrubValue(breadcrumb) as typeof breadcrumb,
      initialScope: { tags: { service: 'web' } },
    });
  }
} catch {
  // An invalid environment is reported by the app itself (getWebDeps) with every problem listed;
  // error tracking simply stays off until it is fixed.
}
