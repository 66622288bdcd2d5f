import type { RequestHandler } from 'express';
import { AppError, ErrorCode } from '@staging/domain/errors';
import { isCrossSiteRequest } from '@staging/http-edge/same-origin';
import { requestSourceOf } from './request-source';

/**
 * Refuses state-changing requests that a browser sent from another site: the shared rule of
 * packages/http-edge/src/same-origin.ts, with the host the trusted proxies name.
 */
export function createOriginCheck(allowedOrigins: readonly string[], trustedProxyHops: number): RequestHandler {
  return (req, _res, next) => {
    const refused = isCrossSiteRequest({
      method: req.method,
      origin: req.get('origin'),
      secFetchSite: req.get('sec-fetch-site'),
      host: requestSourceOf(req, trustedProxyHops).host,
      allowedOrigins,
    });
    next(refused ? new AppError(ErrorCode.FORBIDDEN, 'Cross-site request refused') : undefined);
  };
}
