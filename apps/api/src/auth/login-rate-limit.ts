import { createHash } from 'node:crypto';
import { consumeRateLimit } from '@staging/trpc/rate-limit';
import type { TrpcDeps } from '@staging/trpc/context';
import type { LoginRateLimits } from '../api-deps';

/**
 * Login limits (docs/decisions.md "Login rate limits"): per IP address, so one client cannot
 * spray passwords over many accounts, and per account, so many clients cannot guess one
 * password. Both count every attempt within a fixed 15-minute window.
 */
export const LOGIN_RATE_LIMITS: LoginRateLimits = { perIp: 50, perAccount: 10, windowSeconds: 15 * 60 };

/**
 * Takes one point from the IP bucket and one from the account bucket; over either limit →
 * AppError TOO_MANY_REQUESTS with retryAfterSeconds. Built on the shared Redis limiter of the tRPC
 * package (rate-limiter-flexible RateLimiterRedis, keys namespaced by QUEUE_SUFFIX); `limiterDeps`
 * carries the login window in place of the procedures' 60 seconds.
 */
export async function consumeLoginAttempt(
  limiterDeps: TrpcDeps,
  limits: LoginRateLimits,
  attempt: { ip: string; email: string },
): Promise<void> {
  await consumeRateLimit(limiterDeps, { bucket: 'login-ip', key: attempt.ip, points: limits.perIp });
  // Hashed: the counter key must not put e-mail addresses into the queue store.
  const account = createHash('sha256').update(attempt.email.trim().toLowerCase()).digest('hex');
  await consumeRateLimit(limiterDeps, { bucket: 'login-account', key: account, points: limits.perAccount });
}
