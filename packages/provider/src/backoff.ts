/**
 * Exponential backoff with "full jitter" (delay drawn uniformly from 0..cap), which spreads
 * retries of many workers hitting the same throttled provider instead of synchronising them.
 * Pure: the random source is injectable so tests are deterministic.
 */

export interface BackoffOptions {
  /** 0 for the first retry, 1 for the second, ... */
  attempt: number;
  /** Delay cap of the first retry; default 1 000 ms. */
  baseMs?: number;
  /** Upper bound of any delay; default 60 000 ms. */
  maxMs?: number;
  /** Returns a number in [0, 1); default Math.random. */
  random?: () => number;
  /**
   * Wait the provider asked for (Retry-After). The result is never shorter than this, because
   * retrying earlier only earns another 429.
   */
  retryAfterSeconds?: number;
}

/** Upper bound of the jittered delay for an attempt: min(maxMs, baseMs * 2^attempt). */
export function backoffCeilingMs(attempt: number, baseMs = 1_000, maxMs = 60_000): number {
  if (!Number.isInteger(attempt) || attempt < 0) throw new RangeError(`attempt must be a non-negative integer, got ${attempt}`);
  // 2 ** attempt overflows to Infinity for huge attempts; Math.min keeps the cap.
  return Math.min(maxMs, baseMs * 2 ** attempt);
}

/** Delay in whole milliseconds before retry number `attempt`. */
export function backoffDelayMs(options: BackoffOptions): number {
  const baseMs = options.baseMs ?? 1_000;
  const maxMs = options.maxMs ?? 60_000;
  const random = options.random ?? Math.random;
  const jittered = Math.floor(random() * backoffCeilingMs(options.attempt, baseMs, maxMs));
  const floor = options.retryAfterSeconds === undefined ? 0 : Math.ceil(options.retryAfterSeconds * 1_000);
  return Math.max(jittered, floor);
}
