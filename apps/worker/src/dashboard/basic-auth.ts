import { createHash, timingSafeEqual } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Logger } from '@staging/platform/logger';

/**
 * Wrong credentials one client address may send per window before the dashboard answers 429
 * without checking any more (docs/decisions/operations.md "Queue dashboard: read-only by default, hardened").
 */
export const DASHBOARD_AUTH_FAILURES = { points: 10, windowSeconds: 15 * 60 } as const;

/**
 * Compares in time that depends on neither value: both sides are hashed to 32 bytes first, so
 * not even their lengths differ (timingSafeEqual alone throws on, and so reveals, a length change).
 */
export function isSameSecret(given: Buffer | string, expected: Buffer | string): boolean {
  const digest = (value: Buffer | string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/**
 * HTTP basic auth in front of the dashboard. Each address has a budget of wrong guesses in
 * `failures`; once it is spent every request from it gets 429 with Retry-After until the window
 * ends, right password or not. A request without credentials is a browser asking for the prompt,
 * not a guess, and the right password clears the address's count.
 * The address is the socket's peer: the worker trusts no proxy header.
 */
export function createBasicAuth(options: {
  user: string;
  password: string;
  failures: RateLimiterAbstract;
  logger: Logger;
}) {
  const expected = `${options.user}:${options.password}`;
  const { failures, logger } = options;
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    const address = req.socket.remoteAddress ?? 'unknown';
    const spent = await failures.get(address);
    if (spent !== null && spent.consumedPoints >= failures.points) {
      res.setHeader('Retry-After', String(Math.max(1, Math.ceil(spent.msBeforeNext / 1000))));
      res.status(429).json({ error: { code: 'TOO_MANY_REQUESTS', message: 'Too many failed sign-ins; try again later' } });
      return;
    }
    const header = req.headers.authorization;
    const given = header?.startsWith('Basic ') ? Buffer.from(header.slice('Basic '.length), 'base64') : null;
    if (given !== null && isSameSecret(given, expected)) {
      if (spent !== null && spent.consumedPoints > 0) await failures.delete(address);
      next();
      return;
    }
    if (given !== null) {
      const counted = await failures.penalty(address);
      if (counted.consumedPoints === failures.points) {
        logger.warn(
          { event: 'queue_dashboard.auth_locked', address, windowSeconds: failures.duration },
          'queue dashboard: too many wrong credentials from one address; it is refused until the window ends',
        );
      }
    }
    res.setHeader('WWW-Authenticate', 'Basic realm="queues"');
    res.status(401).json({ error: { code: 'UNAUTHORIZED', message: 'Authentication required' } });
  };
}
