import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pinoHttp } from 'pino-http';
import type { Logger } from '@staging/platform/logger';

const CLIENT_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Keeps a caller's X-Request-Id when it is a plain token (so a trace crosses the load balancer),
 * otherwise mints one; arbitrary header text would let a client inject lines into the logs.
 */
export function resolveRequestId(req: IncomingMessage, res: ServerResponse): string {
  const incoming = req.headers['x-request-id'];
  const id = typeof incoming === 'string' && CLIENT_REQUEST_ID.test(incoming) ? incoming : randomUUID();
  res.setHeader('X-Request-Id', id);
  return id;
}

/** Path without the query string: queries may carry tokens or signed-URL signatures. */
function pathOf(url: string | undefined): string {
  if (url === undefined) return '';
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}

/** The `req` of every request log line: id, method and path, never headers or the query. */
export function loggedRequestOf(req: IncomingMessage, id: unknown) {
  return { id, method: req.method, path: pathOf(req.url) };
}

/**
 * The completion line pino-http writes, for a request answered outside Express (the provider
 * webhook's direct path, create-server.ts): same levels, message and fields, one format for
 * operators.
 */
export function logRequestCompleted(
  logger: Logger,
  line: { req: ReturnType<typeof loggedRequestOf>; res: ServerResponse; startedAt: number; fields?: Record<string, unknown>; err?: unknown },
): void {
  const fields = { ...line.fields, req: line.req, res: { statusCode: line.res.statusCode }, responseTime: Date.now() - line.startedAt };
  if (line.err !== undefined || line.res.statusCode >= 500) logger.error({ ...fields, err: line.err }, 'request errored');
  else logger.info(fields, 'request completed');
}

const completionFields = new WeakMap<ServerResponse, Record<string, unknown>>();

/**
 * Puts a route's event fields on its request's completion line instead of a line of their own,
 * so a hot path (the provider webhook) writes one log line per request, which still carries the
 * status and response time. Used for successful responses only; failures keep their own lines.
 */
export function addToCompletionLine(res: ServerResponse, fields: Record<string, unknown>): void {
  completionFields.set(res, fields);
}

/**
 * pino-http with hand-written serializers: no headers at all are logged (cookies, webhook
 * signatures, authorization), and URLs lose their query string. docs/system.md 6 forbids tokens,
 * cookies and signed URLs in logs, and an allow-list cannot leak a header added later.
 */
export function createRequestLogger(logger: Logger) {
  return pinoHttp({
    logger,
    genReqId: resolveRequestId,
    wrapSerializers: false,
    serializers: {
      req: (req: IncomingMessage & { id?: unknown; raw?: IncomingMessage }) => loggedRequestOf(req.raw ?? req, req.id),
      res: (res: ServerResponse & { raw?: ServerResponse }) => ({ statusCode: (res.raw ?? res).statusCode }),
    },
    customSuccessObject: (_req, res, line: Record<string, unknown>) => {
      const fields = completionFields.get(res);
      return fields === undefined ? line : { ...fields, ...line };
    },
    customLogLevel: (_req, res, error) => {
      if (error !== undefined || res.statusCode >= 500) return 'error';
      return 'info';
    },
  });
}
