import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { AppError, ErrorCode, isAppError } from '@staging/domain/errors';
import type { TrpcDeps } from './context';
import { consumeRateLimit, createOutcomeCounter } from './rate-limit';

export interface LoginRateLimits {
  /** Attempts per IP address per window, whatever their outcome. */
  perIp: number;
  /** Failed attempts on one account from one address per window; the right password clears them. */
  failuresPerAccountAndIp: number;
  /** Failed attempts on one account (any address) per window before further failures are answered late. */
  failuresPerAccountBeforeDelay: number;
  /** Added to the answer of each failure beyond that threshold, up to maxDelayMs. */
  delayPerFailureMs: number;
  maxDelayMs: number;
  windowSeconds: number;
}

/**
 * Login limits (docs/decisions/api.md "Login rate limits"), the same for the api's /api/auth/login and
 * the web app's sign-in form. No limit can be used to lock an agent
 * out: whoever knows an agent's email can fail as often as they like, and the right password from
 * another address still signs in at once.
 * - per address, every attempt: one client cannot spray passwords over many accounts;
 * - per account and address, failures only (rate-limiter-flexible's "consecutive fails by
 *   username and IP"): a success clears it, and it refuses only that address;
 * - per account, failures only: past a threshold each further wrong password is answered late,
 *   so guessing one password from many addresses gets slow. The right password is never delayed.
 */
export const LOGIN_RATE_LIMITS: LoginRateLimits = {
  perIp: 50,
  failuresPerAccountAndIp: 10,
  failuresPerAccountBeforeDelay: 10,
  delayPerFailureMs: 1_000,
  maxDelayMs: 10_000,
  windowSeconds: 15 * 60,
};

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

export function createLoginGuard(deps: TrpcDeps, limits: LoginRateLimits = LOGIN_RATE_LIMITS): LoginGuard {
  // A deps object of its own gives the login buckets their own limiter instances and window.
  const limiterDeps: TrpcDeps = { ...deps, rateLimitWindowSeconds: limits.windowSeconds };
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
