import type { IncomingMessage, ServerResponse } from 'node:http';
import { buffer } from 'node:stream/consumers';
import { setSecurityHeaders } from '../http/security-headers';
import { isWellFormedId } from '@staging/contracts/ids';
import { STAGING_WEBHOOK_PATH_PREFIX } from '@staging/provider/webhook-url';
import type { ApiDeps } from '../api-deps';
import { MALFORMED_BODY_ERROR, sendError, sendThrownError } from '../http/errors';
import { loggedRequestOf, logRequestCompleted, resolveRequestId } from '../http/request-logging';
import { answerProviderCallback, MAX_WEBHOOK_BYTES } from './answer-provider-callback';
import type { ProviderCallbackRecorder } from './record-provider-callback';

/**
 * The provider's callbacks answered before Express: the receiver's whole job is verify, one
 * statement, one wake, 204, and Express's router, body parser and pino-http's per-request child
 * logger cost as much CPU again (`pnpm bench webhook`: about 0.34 ms a callback through Express,
 * 0.15 ms here). The answer itself is the route's (answer-provider-callback.ts), with the same
 * headers, error bodies and log lines. Only a POST of the plain path with a body of declared
 * length within the limit and no Content-Encoding is taken here; anything else returns false
 * and goes to Express, whose route answers it the same way (and 405s the other methods).
 */
export function createDirectProviderWebhook(deps: ApiDeps, recordCallback: ProviderCallbackRecorder) {
  return (req: IncomingMessage, res: ServerResponse): boolean => {
    const url = req.url;
    if (url === undefined || !isPlainProviderCallback(req)) return false;
    // The id is what follows the prefix: the path was just matched, not matched again.
    void serve(deps, recordCallback, url.slice(STAGING_WEBHOOK_PATH_PREFIX.length), req, res);
    return true;
  };
}

/** Whether the direct path takes this request (see {@link createDirectProviderWebhook}). */
export function isPlainProviderCallback(req: Pick<IncomingMessage, 'method' | 'url' | 'headers'>): boolean {
  const declaredLength = Number(req.headers['content-length'] ?? Number.NaN);
  const encoding = req.headers['content-encoding'];
  return (
    req.method === 'POST' &&
    isPlainCallbackPath(req.url ?? '') &&
    declaredLength <= MAX_WEBHOOK_BYTES &&
    (encoding === undefined || encoding === 'identity')
  );
}

/**
 * The route's plain form: the prefix, then a well-formed id (ids.ts) and nothing else, so no
 * trailing slash, query or escape. The id rule is the one every route applies, so a change of id
 * format cannot quietly send every callback the slow way.
 */
function isPlainCallbackPath(url: string): boolean {
  return url.startsWith(STAGING_WEBHOOK_PATH_PREFIX) && isWellFormedId(url.slice(STAGING_WEBHOOK_PATH_PREFIX.length));
}

async function serve(deps: ApiDeps, recordCallback: ProviderCallbackRecorder, providerAttemptId: string, req: IncomingMessage, res: ServerResponse) {
  const startedAt = Date.now();
  setSecurityHeaders(req, res, deps.config);
  const logged = loggedRequestOf(req, resolveRequestId(req, res));
  const log = { warn: (fields: Record<string, unknown>, message: string) => deps.logger.warn({ ...fields, req: logged }, message) };
  let rawBody: Buffer;
  try {
    rawBody = await buffer(req);
  } catch {
    // The client went away mid-body (what Express's body parser answers 400).
    sendError(res, 400, MALFORMED_BODY_ERROR);
    return logRequestCompleted(deps.logger, { req: logged, res, startedAt });
  }
  try {
    const answer = await answerProviderCallback(deps, recordCallback, { providerAttemptId, headers: req.headers, rawBody, log });
    if (answer.status !== 204) {
      sendError(res, answer.status, answer.error);
      return logRequestCompleted(deps.logger, { req: logged, res, startedAt });
    }
    res.statusCode = 204;
    res.end();
    logRequestCompleted(deps.logger, { req: logged, res, startedAt, fields: answer.completionFields });
  } catch (err) {
    // As errorMiddleware: the provider gets a 5xx (503 while the database is down) and retries.
    sendThrownError(res, err, (fields, message) => deps.logger.error({ ...fields, req: logged }, message));
    logRequestCompleted(deps.logger, { req: logged, res, startedAt, err });
  }
}
