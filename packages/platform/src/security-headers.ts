import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * Headers every answer of the api and of the worker's HTTP server carries, errors and 404s
 * included: nothing of them may be sniffed into another type or framed by another site (the
 * worker's queue dashboard is a page with buttons, the one thing here worth clickjacking).
 */
export function setSecurityHeaders(res: ServerResponse): void {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Content-Security-Policy', "frame-ancestors 'none'");
}

/** Express middleware: set before any route runs, so no early return (health, errors) can skip it. */
export function securityHeaders(_req: IncomingMessage, res: ServerResponse, next: () => void): void {
  setSecurityHeaders(res);
  next();
}
