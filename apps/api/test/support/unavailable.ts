/** Seconds every 503 for a dependency that cannot serve asks a client to wait (appErrorOf). */
const RETRY_AFTER = '2';

/**
 * Checks the answer of an outage: 503 with Retry-After, never cached, and nothing of the failure
 * (addresses, driver names, stacks) in the body. Returns the body for the caller's own checks.
 */
export async function expectUnavailable(response: Response): Promise<string> {
  expect(response.status).toBe(503);
  expect(response.headers.get('retry-after')).toBe(RETRY_AFTER);
  expect(response.headers.get('cache-control')).toBe('no-store');
  const text = await response.text();
  expect(text).not.toMatch(/127\.0\.0\.1|ECONNREFUSED|prisma|ioredis|enableOfflineQueue|stack/i);
  return text;
}
