import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import { strictTransportSecurityFor } from '@staging/domain/request-source';
import type { ApiConfig } from '@staging/config/api';
import { requestSourceOf } from './request-source';

type SecuritySettings = Pick<ApiConfig, 'nodeEnv' | 'trustedProxyHops'>;

/**
 * Headers every api answer carries, errors and 404s included: the api serves JSON and image
 * bytes, never a page, so nothing of it may be sniffed into HTML or framed by another site. HSTS
 * goes on answers that reached the client over HTTPS, in production.
 */
export function setSecurityHeaders(req: IncomingMessage, res: ServerResponse, settings: SecuritySettings): void {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Content-Security-Policy', "frame-ancestors 'none'");
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
