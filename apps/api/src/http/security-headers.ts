import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import { strictTransportSecurityFor } from '@staging/http-edge/request-source';
import { setSecurityHeaders as setServiceSecurityHeaders } from '@staging/platform/security-headers';
import type { ApiConfig } from '@staging/config/api';
import { requestSourceOf } from './request-source';

type SecuritySettings = Pick<ApiConfig, 'nodeEnv' | 'trustedProxyHops'>;

/**
 * Headers every api answer carries, errors and 404s included: those of every service of ours,
 * and HSTS on answers that reached the client over HTTPS, in production.
 */
export function setSecurityHeaders(req: IncomingMessage, res: ServerResponse, settings: SecuritySettings): void {
  setServiceSecurityHeaders(res);
  const hsts = strictTransportSecurityFor(requestSourceOf(req, settings.trustedProxyHops), settings.nodeEnv);
  if (hsts !== undefined) res.setHeader('Strict-Transport-Security', hsts);
}

/** Set before any Express route runs, so no early return (health, error middleware) can skip it. */
export function createSecurityHeaders(settings: SecuritySettings): RequestHandler {
  return (req, res, next) => {
    setSecurityHeaders(req, res, settings);
    next();
  };
}
