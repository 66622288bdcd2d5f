import { stagingDedupeKey } from './dedupe';
import { STAGING_DISPOSITIONS } from './dispositions';
import { aspectRatioValue } from './provider-values';

describe('dedupe key', () => {
  it('is <originalImageId>:<canonicalStyle>', () => {
    expect(stagingDedupeKey('4f1c2a8e-0000-4000-8000-000000000001', 'MID_CENTURY')).toBe(
      '4f1c2a8e-0000-4000-8000-000000000001:MID_CENTURY',
    );
    expect(stagingDedupeKey('a', 'MODERN')).not.toBe(stagingDedupeKey('a', 'COASTAL'));
  });
});

describe('dispositions', () => {
  it('are spelled exactly as clients decode them', () => {
    expect(STAGING_DISPOSITIONS).toEqual({ ENQUEUED: 'ENQUEUED', EXISTING: 'EXISTING', STYLE_EXISTS: 'style_exists' });
  });
});

describe('provider input values', () => {
  it('computes width over height', () => {
    expect(aspectRatioValue('3:2')).toBe(1.5);
    expect(aspectRatioValue('2:3')).toBeCloseTo(2 / 3);
    expect(aspectRatioValue('1:1')).toBe(1);
  });
});
