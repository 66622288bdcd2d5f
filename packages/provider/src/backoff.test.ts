import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { backoffCeilingMs, backoffDelayMs } from './backoff';

describe('backoffCeilingMs', () => {
  it('doubles from the base and stops at the cap', () => {
    expect([0, 1, 2, 3, 6, 7, 50].map((attempt) => backoffCeilingMs(attempt, 1_000, 60_000))).toEqual([
      1_000, 2_000, 4_000, 8_000, 60_000, 60_000, 60_000,
    ]);
  });

  it('stays finite for absurd attempt numbers', () => {
    expect(backoffCeilingMs(5_000, 1_000, 60_000)).toBe(60_000);
  });

  it.each([-1, 1.5, Number.NaN])('rejects attempt %p', (attempt) => {
    expect(() => backoffCeilingMs(attempt)).toThrow(RangeError);
  });
});

describe('backoffDelayMs', () => {
  it('scales the ceiling by the random draw (full jitter)', () => {
    expect(backoffDelayMs({ attempt: 2, baseMs: 1_000, random: () => 0.5 })).toBe(2_000);
    expect(backoffDelayMs({ attempt: 2, baseMs: 1_000, random: () => 0 })).toBe(0);
    expect(backoffDelayMs({ attempt: 2, baseMs: 1_000, random: () => 0.999_999 })).toBe(3_999);
  });

  it('never waits less than Retry-After', () => {
    expect(backoffDelayMs({ attempt: 0, random: () => 0.1, retryAfterSeconds: 7 })).toBe(7_000);
    expect(backoffDelayMs({ attempt: 5, random: () => 0.9, retryAfterSeconds: 1 })).toBe(28_800);
  });

  it('stays within [0, ceiling) for any attempt and random draw', () => {
    fc.assert(
      fc.property(
        fc.nat(200),
        fc.integer({ min: 1, max: 10_000 }),
        fc.integer({ min: 1, max: 600_000 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (attempt, baseMs, maxMs, draw) => {
          const delay = backoffDelayMs({ attempt, baseMs, maxMs, random: () => draw });
          const ceiling = backoffCeilingMs(attempt, baseMs, maxMs);
          return Number.isInteger(delay) && delay >= 0 && delay < ceiling;
        },
      ),
    );
  });

  it('never shrinks its ceiling as attempts grow', () => {
    fc.assert(
      fc.property(fc.nat(100), fc.integer({ min: 1, max: 10_000 }), (attempt, baseMs) => {
        return backoffCeilingMs(attempt + 1, baseMs) >= backoffCeilingMs(attempt, baseMs);
      }),
    );
  });
});
