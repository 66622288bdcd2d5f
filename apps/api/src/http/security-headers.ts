import type { ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';

/**
 * Headers every api answer carries, errors and 404s included: the api serves JSON and image
 * bytes, never a page, so nothing of it may be sniffed into HTML or framed by another site.
 */
export function setSecurityHeaders(res: ServerResponse): void {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Content-Security-Policy', "frame-ancestors 'none'");
}

/** Set before any Express route runs, so no early return (health, error middleware) can skip it. */
export const securityHeaders: RequestHandler = (_req, res, next) => {
  setSecurityHeaders(res);
  next();
};
