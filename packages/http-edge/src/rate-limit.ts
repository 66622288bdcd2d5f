import type { Redis } from 'ioredis';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { AppError, ErrorCode } from '@staging/domain/errors';
import type { Logger } from '@staging/platform/logger';
import { REQUEST_LIMIT_WINDOW_SECONDS } from './request-limits';
import type { RequestLimit } from './request-limits';

/**
 * What the limiters need of a process's deps; the tRPC deps are one (apps pass theirs as they are).
 * Limiter instances are kept per deps object, so one object should serve a process's requests.
 */
export interface RateLimitDeps {
  /** ioredis connection to the queue store (VALKEY_URL): the counters live here. */
  redis: Redis;
  logger: Logger;
  /** Spaces out the "limiter unavailable" log lines while Redis is out. */
  clock: { now(): Date };
  /** QUEUE_SUFFIX: namespaces every queue and Redis key of this deployment (may be empty). */
  queueSuffix: string;
  /**
   * Window in seconds. Tests only (to watch a window end); production leaves it unset and gets
   * REQUEST_LIMIT_WINDOW_SECONDS. Same code path either way.
   */
  rateLimitWindowSeconds?: number;
}

// One limiter per deps × bucket × points: the RateLimiterRedis constructor registers a Lua command
// on the client, which should happen once per process, not once per request.
const limiters = new WeakMap<RateLimitDeps, Map<string, RateLimiterRedis>>();

function limiterFor(deps: RateLimitDeps, bucket: string, points: number): RateLimiterRedis {
  let perDeps = limiters.get(deps);
  if (perDeps === undefined) {
    perDeps = new Map();
    limiters.set(deps, perDeps);
  }
  const id = `${bucket}:${points}`;
  let limiter = perDeps.get(id);
  if (limiter === undefined) {
    limiter = new RateLimiterRedis({
      storeClient: deps.redis,
      // QUEUE_SUFFIX namespaces the keys like every other Redis key of the deployment, so test
      // runs and parallel stacks on one Redis never share counters.
      keyPrefix: `rl:${bucket}${deps.queueSuffix}`,
      points,
      duration: deps.rateLimitWindowSeconds ?? REQUEST_LIMIT_WINDOW_SECONDS,
      // Fail fast instead of waiting in ioredis's offline queue while Redis is down.
      rejectIfRedisNotReady: true,
    });
    perDeps.set(id, limiter);
  }
  return limiter;
}

/**
 * A limiter for counting outcomes rather than requests (e.g. failed logins through `penalty`,
 * read with `get`, cleared with `delete`), namespaced like every bucket here.
 */
export function createOutcomeCounter(
  deps: RateLimitDeps,
  options: { bucket: string; points: number; windowSeconds: number },
): RateLimiterRedis {
  return new RateLimiterRedis({
    storeClient: deps.redis,
    keyPrefix: `rl:${options.bucket}${deps.queueSuffix}`,
    points: options.points,
    duration: options.windowSeconds,
    rejectIfRedisNotReady: true,
  });
}

// Every request takes a point, so while Redis is out each one would log the same failure: one line
// per interval (with how many requests went through unlogged) tells an operator as much.
const UNAVAILABLE_LOG_INTERVAL_MS = 10_000;
const unavailableLogs = new WeakMap<RateLimitDeps, { at: number; unlogged: number }>();

function logLimiterUnavailable(deps: RateLimitDeps, bucket: string, error: unknown): void {
  const now = deps.clock.now().getTime();
  const last = unavailableLogs.get(deps);
  if (last !== undefined && now - last.at < UNAVAILABLE_LOG_INTERVAL_MS) {
    last.unlogged += 1;
    return;
  }
  deps.logger.error({ err: error, bucket, allowedUnlogged: last?.unlogged ?? 0 }, 'rate limiter unavailable; request allowed');
  unavailableLogs.set(deps, { at: now, unlogged: 0 });
}

/**
 * Takes one point for `key`. Over the limit → AppError TOO_MANY_REQUESTS with the whole seconds
 * until the window frees a point. When Redis itself fails the call is let through and logged (once per 10 s):
 * the limit protects the service from abuse, and an outage of the queue store should not also
 * take inventory editing, or every read of the site, down (docs/decisions/api.md "Request limits
 * of every procedure and route").
 */
export async function consumeRateLimit(
  deps: RateLimitDeps,
  options: { bucket: string; key: string; points: number },
): Promise<void> {
  try {
    await limiterFor(deps, options.bucket, options.points).consume(options.key);
  } catch (rejection) {
    if (rejection instanceof RateLimiterRes) {
      const retryAfterSeconds = Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
      throw new AppError(ErrorCode.TOO_MANY_REQUESTS, 'Too many requests; try again later', { retryAfterSeconds });
    }
    logLimiterUnavailable(deps, options.bucket, rejection);
  }
}

/** Who is calling: the signed-in user, if any, and the client address of the transport. */
export interface RequestCaller {
  userId: string | null;
  address: string;
}

/**
 * Takes one point of a table entry (request-limits.ts) for `caller`: per user, or per client
 * address for an anonymous surface. A `user` entry without a session is refused as UNAUTHORIZED
 * rather than counted nowhere.
 */
export async function consumeRequestLimit(
  deps: RateLimitDeps,
  options: { bucket: string; name: string; limit: RequestLimit; caller: RequestCaller },
): Promise<void> {
  const { bucket, name, limit, caller } = options;
  let who: string;
  if (limit.per === 'address') who = `addr:${caller.address}`;
  else if (caller.userId !== null) who = caller.userId;
  else throw new AppError(ErrorCode.UNAUTHORIZED, 'Sign in to continue');
  await consumeRateLimit(deps, { bucket, key: `${who}:${name}`, points: limit.points });
}
