import { describe, expect, it } from '@jest/globals';
import { parseRetryAfterSeconds } from './provider-error';

// Replicate's 429 carries no Retry-After header; the wait is only in the `detail` text
// (https://replicate.com/docs/topics/predictions/rate-limits).
describe('parseRetryAfterSeconds from a throttled body', () => {
  it.each([
    ['Request was throttled. Your rate limit resets in ~30s.', 30],
    ['Request was throttled. Your rate limit resets in ~1s.', 1],
    ['Request was throttled. Your rate limit resets in ~2.5s.', 3],
    ['Request was throttled. Your rate limit resets in 7s.', 7],
    ['Request was throttled. Expected available in 1 second.', 1],
    ['Request was throttled. Expected available in 4 seconds.', 4],
  ])('reads "%s" as %i s', (detail, seconds) => {
    expect(parseRetryAfterSeconds(null, detail)).toBe(seconds);
  });

  it('prefers a Retry-After header when one is present', () => {
    expect(parseRetryAfterSeconds('9', 'Request was throttled. Your rate limit resets in ~30s.')).toBe(9);
  });

  it.each([['Request was throttled.'], ['Your rate limit resets soon'], [undefined]])('returns undefined for %p', (detail) => {
    expect(parseRetryAfterSeconds(null, detail)).toBeUndefined();
  });
});
