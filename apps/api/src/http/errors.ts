import type { ServerResponse } from 'node:http';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { ZodError } from 'zod';
import { ErrorCode, httpStatusOf } from '@staging/domain/errors';
import { appErrorOf } from '@staging/services/app-error-of';
import { fieldIssuesOf } from '@staging/domain/field-issues';
import type { ErrorReason, FieldIssue } from '@staging/domain/errors';

/** Codes that exist only at the HTTP layer (no use case can produce them). */
export type HttpOnlyCode = 'METHOD_NOT_ALLOWED';

/**
 * The one JSON error body of every HTTP route: `{ "error": { "code", "message", reason?, issues? } }`.
 * Clients word it by `code` and `reason`; `message` is English for developers.
 */
export interface ErrorBody {
  error: { code: ErrorCode | HttpOnlyCode; message: string; reason?: ErrorReason; issues?: FieldIssue[] };
}

/** Written with node:http alone (as Express's `res.json` would) so a route outside Express can use it. */
export function sendError(res: ServerResponse, status: number, body: ErrorBody['error']): void {
  if (res.headersSent) return;
  // A route may have set its success's caching before it failed (a public derivative may be kept
  // for minutes); an error must not be kept under those headers by a CDN or browser.
  res.removeHeader('ETag');
  res.setHeader('Cache-Control', 'no-store');
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.end(JSON.stringify({ error: body } satisfies ErrorBody));
}

/**
 * What {@link errorMiddleware} answers for a body that could not be read (400); the webhook's path
 * outside Express answers it the same way.
 */
export const MALFORMED_BODY_ERROR = { code: ErrorCode.BAD_REQUEST, message: 'Malformed request body' } satisfies ErrorBody['error'];
/** What every route answers when a path parameter is not valid percent-encoded UTF-8. */
const MALFORMED_PATH_ERROR = { code: ErrorCode.BAD_REQUEST, message: 'Malformed percent-encoding in the path' } satisfies ErrorBody['error'];
const INTERNAL_ERROR = { code: ErrorCode.INTERNAL, message: 'Internal error' } satisfies ErrorBody['error'];

/** Answers any path no route claimed; Express's default would be an HTML page. */
export const notFoundHandler: RequestHandler = (_req, res) => {
  sendError(res, 404, { code: ErrorCode.NOT_FOUND, message: 'Not found' });
};

/** Mounted with `app.all` after a path's real methods so the path never falls through to 404. */
export function methodNotAllowed(allowed: readonly string[]): RequestHandler {
  return (_req, res) => {
    res.setHeader('Allow', allowed.join(', '));
    sendError(res, 405, { code: 'METHOD_NOT_ALLOWED', message: `Use ${allowed.join(' or ')} on this path` });
  };
}

/**
 * Body parsers (express.json/raw) and busboy-free parsing errors carry `type` and a 4xx `status`;
 * they describe the client's request, so they map to 4xx instead of falling into the 500 branch.
 */
function bodyParserStatus(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  if (!('type' in error) || typeof error.type !== 'string' || !('status' in error) || typeof error.status !== 'number') return undefined;
  return error.status >= 400 && error.status < 500 ? error.status : undefined;
}

/** Where {@link sendThrownError} reports what operators must see (a request's logger). */
export type ErrorLog = (fields: { err: unknown }, message: string) => void;

/**
 * Answers an error a handler threw: its AppError (including Postgres or Redis unable to serve for
 * now, 503 with Retry-After, see `appErrorOf`) by the code's status, anything else 500 INTERNAL
 * without details, because unknown errors may carry SQL, keys or paths that a client must not see.
 * The 500s and the outages are logged with their stacks. Written with node:http alone, so the
 * webhook's path outside Express answers exactly as the Express routes do.
 */
export function sendThrownError(res: ServerResponse, error: unknown, log: ErrorLog): void {
  const appError = appErrorOf(error);
  if (appError === undefined) {
    log({ err: error }, 'unhandled error');
    sendError(res, 500, INTERNAL_ERROR);
    return;
  }
  if (appError.code === ErrorCode.INTERNAL) log({ err: appError }, 'internal error');
  if (appError.code === ErrorCode.TEMPORARILY_UNAVAILABLE) log({ err: error }, 'dependency unavailable');
  // Headers already sent (a body streaming when storage failed): sendError leaves the response alone.
  if (appError.retryAfterSeconds !== undefined && !res.headersSent) res.setHeader('Retry-After', String(appError.retryAfterSeconds));
  const body: ErrorBody['error'] = { code: appError.code, message: appError.message };
  if (appError.reason !== undefined) body.reason = appError.reason;
  if (appError.issues !== undefined) body.issues = appError.issues;
  sendError(res, httpStatusOf[appError.code], body);
}

/**
 * The single Express error middleware: zod failures and undecodable path parameters become 400,
 * body-parser failures 400/413, and everything else is answered by {@link sendThrownError}.
 */
export const errorMiddleware: ErrorRequestHandler = (error: unknown, req, res, _next) => {
  if (error instanceof ZodError) {
    sendError(res, 400, { code: ErrorCode.BAD_REQUEST, message: 'Invalid request', issues: fieldIssuesOf(error.issues) });
    return;
  }
  // The router could not percent-decode a path parameter (`%E0%A4%A`): the client's URL is
  // malformed, whichever route it was meant for.
  if (error instanceof URIError) {
    sendError(res, 400, MALFORMED_PATH_ERROR);
    return;
  }
  const parserStatus = bodyParserStatus(error);
  if (parserStatus !== undefined) {
    if (parserStatus === 413) {
      sendError(res, 413, { code: ErrorCode.PAYLOAD_TOO_LARGE, message: 'Request body too large' });
    } else {
      sendError(res, 400, MALFORMED_BODY_ERROR);
    }
    return;
  }
  sendThrownError(res, error, (fields, message) => req.log.error(fields, message));
};
