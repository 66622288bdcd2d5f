import { isDatabaseUnavailable } from '@staging/db/client';
import { AppError, ErrorCode } from '@staging/domain/errors';
import { isRedisUnavailable } from '@staging/platform/queues';

/**
 * Seconds a client is asked to wait after Postgres or Redis was unavailable. A connection whose
 * backend ended is replaced at once; a restart or failover takes longer, and clients ask again anyway.
 */
const RETRY_AFTER_SECONDS = 2;

/**
 * The error a client is answered with for `error`: the AppError itself, TEMPORARILY_UNAVAILABLE when
 * Postgres or Redis (public search reads it) could not serve the request for now, or undefined for an
 * internal error. Both transports (Express routes and tRPC) answer through it, so an outage is a 503
 * with Retry-After everywhere.
 *
 * The message tells a client that saved something to look before saving again: a session that
 * ended during COMMIT may have committed, and nothing can tell which.
 */
export function appErrorOf(error: unknown): AppError | undefined {
  if (error instanceof AppError) return error;
  if (!isDatabaseUnavailable(error) && !isRedisUnavailable(error)) return undefined;
  return new AppError(
    ErrorCode.TEMPORARILY_UNAVAILABLE,
    'The service is briefly unavailable. Try again in a moment; if you were saving a change, check first whether it was saved.',
    { retryAfterSeconds: RETRY_AFTER_SECONDS, cause: error },
  );
}
