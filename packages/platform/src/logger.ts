import { pino } from 'pino';
import type { Bindings, ChildLoggerOptions, DestinationStream, Logger, LoggerOptions } from 'pino';
import type { LogLevel } from '@staging/config/common';
import { REDACTED, redactUrl, scrubObject, scrubText } from './scrub';

export type { Logger } from 'pino';
export { redactUrl, scrubText } from './scrub';

export interface CreateLoggerOptions {
  /** `service` on every line, so one log search spans web, api and worker. */
  service: string;
  level: LogLevel;
  /** Defaults to stdout; tests pass a memory stream. */
  destination?: DestinationStream;
}

/**
 * Paths in the final log object, after serializers ran: pino-http's request serializer builds
 * `req`/`res` from live objects that the key-based scrub in `formatters.log` cannot walk. URL paths
 * keep their path and lose their query; every other path is replaced.
 */
export const REDACT_PATHS = [
  'req.url',
  'req.query',
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["webhook-signature"]',
  'req.headers["x-api-key"]',
  'res.headers["set-cookie"]',
  'res.headers.location',
] as const;

function censor(value: unknown, path: string[]): unknown {
  const last = path[path.length - 1];
  if ((last === 'url' || last === 'location') && typeof value === 'string') return redactUrl(value);
  return REDACTED;
}

interface SerializedError {
  type: string;
  message: string;
  stack?: string;
  code?: unknown;
  cause?: SerializedError | undefined;
  [key: string]: unknown;
}

/**
 * Error serializer that keeps type, message, stack, code and cause, with credentials scrubbed
 * from the text: SDK errors routinely embed the failing URL (query signature included) or the
 * connection string in their message.
 */
export function serializeError(error: unknown, depth = 0): SerializedError | undefined {
  if (error === undefined || error === null) return undefined;
  if (!(error instanceof Error)) return { type: typeof error, message: scrubText(String(error)) };
  const base: Record<string, unknown> = pino.stdSerializers.err(error);
  const scrubbed = scrubObject({ ...base, cause: undefined });
  return {
    ...scrubbed,
    type: String(base['type'] ?? error.name),
    message: scrubText(error.message),
    ...(error.stack === undefined ? {} : { stack: scrubText(error.stack) }),
    cause: depth < 4 && error.cause !== undefined ? serializeError(error.cause, depth + 1) : undefined,
  };
}

/** One JSON line per event with `service`, `level` as a label and an ISO `time`. */
export function createLogger(options: CreateLoggerOptions): Logger {
  const config: LoggerOptions = {
    level: options.level,
    base: { service: options.service },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: [...REDACT_PATHS], censor },
    formatters: {
      level: (label) => ({ level: label }),
      log: (object) => scrubObject(object),
    },
    serializers: {
      err: serializeError,
      error: serializeError,
      msg: (message: unknown) => (typeof message === 'string' ? scrubText(message) : message),
    },
  };
  const logger = options.destination === undefined ? pino(config) : pino(config, options.destination);
  // pino applies `formatters.bindings` to the base bindings only, never to `child()` bindings, so
  // those are scrubbed here. Children are created with Object.create(parent) and inherit this.
  const createChild = logger.child;
  logger.child = function scrubbedChild<ChildLevels extends string = never>(
    this: Logger,
    bindings: Bindings,
    childOptions?: ChildLoggerOptions<ChildLevels>,
  ): Logger<ChildLevels> {
    return createChild.call<Logger, [Bindings, ChildLoggerOptions<ChildLevels> | undefined], Logger<ChildLevels>>(this, scrubObject(bindings), childOptions);
  };
  return logger;
}
