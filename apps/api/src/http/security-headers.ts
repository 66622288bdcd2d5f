import type { RequestHandler } from 'express';

/**
 * Headers every api answer carries, errors and 404s included: the api serves JSON and image
 * bytes, never a page, so nothing of it may be sniffed into HTML or framed by another site.
 * Set before any route runs, so no early return (health, webhook, error middleware) can skip it.
 */
export const securityHeaders: RequestHandler = (_req, res, next) => {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Content-Security-Policy', "frame-ancestors 'none'");
  next();
};
