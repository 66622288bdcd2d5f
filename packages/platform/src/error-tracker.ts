import * as Sentry from '@sentry/node';
import type { ErrorEvent } from '@sentry/node';
import type { SentryConfig } from '@staging/config/common';
import { SENTRY_PROCESS_HANDLER_INTEGRATIONS, uncaughtErrorHint } from './fatal-error';
import type { FatalOrigin } from './fatal-error';
import { createLogger } from './logger';
import type { Logger } from './logger';
import { scrubObject } from './scrub';

export type AlertLevel = 'fatal' | 'error' | 'warning' | 'info';

/** Searchable alert dimensions (docs/system.md 6: job ID and error code must be searchable). */
export interface AlertTags {
  jobId?: string;
  errorCode?: string;
  [name: string]: string | number | boolean | undefined;
}

export interface Alert {
  message: string;
  level: AlertLevel;
  tags: AlertTags;
  extra?: Record<string, unknown>;
}

export interface InitErrorTrackerOptions extends SentryConfig {
  service: string;
  /** Alerts are always logged here too; defaults to an info-level logger for `service`. */
  logger?: Logger;
}

interface TrackerState {
  enabled: boolean;
  logger: Logger;
}

let state: TrackerState | undefined;

/**
 * Removes credentials from an event before it leaves the process: secret-named keys anywhere,
 * tokens and signing secrets inside messages and stack text, URL queries, cookies.
 */
export function scrubEvent<E extends ErrorEvent>(event: E): E {
  const scrubbed = scrubObject(event);
  if (scrubbed.request !== undefined) {
    delete scrubbed.request.query_string;
    delete scrubbed.request.cookies;
  }
  return scrubbed;
}

/**
 * Starts error tracking. Without a DSN the SDK stays off and alerts are only logged, which is
 * the local default. Environment and release go on every event as Sentry's own searchable fields,
 * `service` as a global tag.
 */
export function initErrorTracker(options: InitErrorTrackerOptions): { enabled: boolean } {
  const logger = options.logger ?? createLogger({ service: options.service, level: 'info' });
  const enabled = options.dsn !== undefined;
  if (enabled) {
    Sentry.init({
      dsn: options.dsn,
      environment: options.environment,
      release: options.release,
      sendDefaultPii: false,
      // Error reporting only: no tracing, and no ESM loader hooks that would wrap every import.
      // Uncaught errors are captured by exitOnFatalError (reportFatalError), not by the SDK.
      registerEsmLoaderHooks: false,
      integrations: (defaults) =>
        defaults.filter(
          (integration) =>
            integration.name !== 'Http' && integration.name !== 'NodeFetch' && !SENTRY_PROCESS_HANDLER_INTEGRATIONS.includes(integration.name),
        ),
      beforeSend: (event) => scrubEvent(event),
      beforeBreadcrumb: (breadcrumb) => scrubObject(breadcrumb),
      initialScope: { tags: { service: options.service } },
    });
  }
  state = { enabled, logger };
  return { enabled };
}

function currentState(): TrackerState {
  // An alert raised before init (a boot failure) must still reach the log.
  state ??= { enabled: false, logger: createLogger({ service: 'unknown', level: 'info' }) };
  return state;
}

function definedTags(tags: AlertTags): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const [name, value] of Object.entries(tags)) if (value !== undefined) out[name] = value;
  return out;
}

const LOG_LEVEL: Record<AlertLevel, 'fatal' | 'error' | 'warn' | 'info'> = {
  fatal: 'fatal',
  error: 'error',
  warning: 'warn',
  info: 'info',
};

/** Sends an alert to the error tracker (when on) and always writes it as a log line. */
export function captureAlert(alert: Alert): void {
  const { enabled, logger } = currentState();
  const tags = definedTags(alert.tags);
  logger[LOG_LEVEL[alert.level]]({ event: 'alert', ...tags, ...(alert.extra === undefined ? {} : { extra: alert.extra }) }, alert.message);
  if (enabled) {
    Sentry.captureMessage(alert.message, { level: alert.level, tags, ...(alert.extra === undefined ? {} : { extra: alert.extra }) });
  }
}

/** Reports an unexpected exception with the same tags, and logs it. */
export function captureError(error: unknown, context: { tags: AlertTags; extra?: Record<string, unknown> }): void {
  const { enabled, logger } = currentState();
  const tags = definedTags(context.tags);
  logger.error({ event: 'alert', err: error, ...tags, ...(context.extra === undefined ? {} : { extra: context.extra }) }, 'unexpected error');
  if (enabled) {
    Sentry.captureException(error, { tags, ...(context.extra === undefined ? {} : { extra: context.extra }) });
  }
}

/**
 * `report` of exitOnFatalError: captures an error nothing caught as an unhandled fatal event and
 * sends it before the process exits. Logging is the policy's part, so this only reaches the tracker.
 */
export async function reportFatalError(error: unknown, origin: FatalOrigin): Promise<boolean> {
  if (!currentState().enabled) return true;
  Sentry.captureException(error, uncaughtErrorHint(origin, true));
  return flushErrorTracker();
}

/** Sends buffered events; call before exit. Resolves false when the timeout was hit. */
export async function flushErrorTracker(timeoutMs = 2_000): Promise<boolean> {
  return currentState().enabled ? Sentry.flush(timeoutMs) : true;
}

/**
 * Flushes and shuts the SDK down (graceful shutdown). Later alerts are only logged. Resolves false
 * when buffered events could not be sent within the timeout.
 */
export async function closeErrorTracker(timeoutMs = 2_000): Promise<boolean> {
  const { enabled, logger } = currentState();
  state = { enabled: false, logger };
  return enabled ? Sentry.close(timeoutMs) : true;
}
