import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { AppError, ErrorCode, isAppError } from '@staging/domain/errors';
import { LOGIN_RATE_LIMITS } from './login-limits';
import type { LoginRateLimits } from './login-limits';
import { consumeRateLimit, createOutcomeCounter } from './rate-limit';
import type { RateLimitDeps } from './rate-limit';

export interface LoginAttempt {
  /** The client's address per the trusted-proxy rule; undefined when none is known (all such attempts share one key). */
  ip: string | undefined;
  email: string;
}

export interface LoginGuard {
  /** Before the password is checked: 429 when the address, or the address for this account, is over its limit. */
  before(attempt: LoginAttempt): Promise<void>;
  /** A wrong password: counts it for the account, and answers late once the account has failed too often. */
  failed(attempt: LoginAttempt): Promise<void>;
  /** The right password: forgets this address's failures for the account. */
  succeeded(attempt: LoginAttempt): Promise<void>;
  /** Neither (the check itself failed, e.g. the database is down): gives back what `before` reserved. */
  abandoned(attempt: LoginAttempt): Promise<void>;
}

/** Hashed: counter keys must not put e-mail addresses into the queue store. */
function accountKey(email: string): string {
  return createHash('sha256').update(email.trim().toLowerCase()).digest('hex');
}

/** The limits of login-limits.ts, counted in the queue store and shared by every instance. */
export function createLoginGuard(deps: RateLimitDeps, limits: LoginRateLimits = LOGIN_RATE_LIMITS): LoginGuard {
  // A deps object of its own gives the login buckets their own limiter instances and window.
  const limiterDeps: RateLimitDeps = { ...deps, rateLimitWindowSeconds: limits.windowSeconds };
  const failures = (bucket: string, points: number) =>
    createOutcomeCounter(limiterDeps, { bucket, points, windowSeconds: limits.windowSeconds });
  const perAccountAndIp = failures('login-account-ip-fails', limits.failuresPerAccountAndIp);
  const perAccount = failures('login-account-fails', limits.failuresPerAccountBeforeDelay);
  const ipKey = (attempt: LoginAttempt) => attempt.ip ?? 'unknown';
  const pairKey = (attempt: LoginAttempt) => `${accountKey(attempt.email)}:${ipKey(attempt)}`;
  // As for every limit here: when Redis fails, the login goes ahead and the failure is logged.
  const bestEffort = async <T>(what: string, run: () => Promise<T>): Promise<T | undefined> => {
    try {
      return await run();
    } catch (error) {
      limiterDeps.logger.error({ err: error, bucket: what }, 'rate limiter unavailable; request allowed');
      return undefined;
    }
  };

  return {
    async before(attempt) {
      await consumeRateLimit(limiterDeps, { bucket: 'login-ip', key: ipKey(attempt), points: limits.perIp });
      // Counted as a failure before the password is checked: a count read now and raised only
      // once each guess has failed lets any number of parallel guesses through. The right
      // password clears it, an unsettled check gives it back.
      const pair = await bestEffort('login-account-ip-fails', () => perAccountAndIp.penalty(pairKey(attempt)));
      if (pair != null && pair.consumedPoints > limits.failuresPerAccountAndIp) {
        const retryAfterSeconds = Math.max(1, Math.ceil(pair.msBeforeNext / 1000));
        throw new AppError(ErrorCode.TOO_MANY_REQUESTS, 'Too many requests; try again later', { retryAfterSeconds });
      }
    },
    async failed(attempt) {
      const account = await bestEffort('login-account-fails', () => perAccount.penalty(accountKey(attempt.email)));
      const excess = (account?.consumedPoints ?? 0) - limits.failuresPerAccountBeforeDelay;
      if (excess > 0) await sleep(Math.min(excess * limits.delayPerFailureMs, limits.maxDelayMs));
    },
    async succeeded(attempt) {
      await bestEffort('login-account-ip-fails', () => perAccountAndIp.delete(pairKey(attempt)));
    },
    async abandoned(attempt) {
      await bestEffort('login-account-ip-fails', () => perAccountAndIp.reward(pairKey(attempt)));
    },
  };
}

/** Runs `signIn` (which throws UNAUTHORIZED for a wrong password) inside the guard's checks. */
export async function signInGuarded<T>(guard: LoginGuard, attempt: LoginAttempt, signIn: () => Promise<T>): Promise<T> {
  await guard.before(attempt);
  const result = await signIn().catch(async (error: unknown) => {
    if (isAppError(error) && error.code === ErrorCode.UNAUTHORIZED) await guard.failed(attempt);
    else await guard.abandoned(attempt);
    throw error;
  });
  await guard.succeeded(attempt);
  return result;
}
