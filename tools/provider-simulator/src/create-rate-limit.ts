/**
 * Replicate limits prediction creation per account ("You can create predictions at 600 requests
 * per minute"); over the limit it answers 429 with only a `detail` text saying when the limit
 * resets. A sliding one-minute window over accepted requests is close enough to make a worker that
 * ignores throttling visible in tests.
 */

const WINDOW_MS = 60_000;

export type RateDecision = { allowed: true } | { allowed: false; resetsInSeconds: number };

export function createRateLimiter(limitPerMinute: number) {
  const accepted: number[] = [];
  return {
    take(now = Date.now()): RateDecision {
      while (accepted.length > 0 && (accepted[0] as number) <= now - WINDOW_MS) accepted.shift();
      if (accepted.length >= limitPerMinute) {
        const oldest = accepted[0] ?? now;
        return { allowed: false, resetsInSeconds: Math.max(1, Math.ceil((oldest + WINDOW_MS - now) / 1000)) };
      }
      accepted.push(now);
      return { allowed: true };
    },
    reset(): void {
      accepted.length = 0;
    },
  };
}

/** The body Replicate documents for a throttled request (no Retry-After header). */
export function throttledBody(resetsInSeconds: number): { detail: string } {
  return { detail: `Request was throttled. Your rate limit resets in ~${resetsInSeconds}s.` };
}
