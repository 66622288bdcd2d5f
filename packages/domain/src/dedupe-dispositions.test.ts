import { stagingDedupeKey } from './dedupe';
import { STAGING_DISPOSITIONS, STAGING_DISPOSITION_VALUES } from './dispositions';
import { ZProviderInputValues, aspectRatioValue } from './provider-values';

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
    expect(STAGING_DISPOSITION_VALUES).toEqual(['ENQUEUED', 'EXISTING', 'style_exists']);
  });
});

describe('provider input values', () => {
  it('accept the docs/system.md values and refuse others', () => {
    const valid = { quality: 'medium', aspectRatio: '1:1', outputFormat: 'jpeg', outputCompression: 92 };
    expect(ZProviderInputValues.parse(valid)).toEqual(valid);
    expect(ZProviderInputValues.safeParse({ ...valid, aspectRatio: '16:9' }).success).toBe(false);
    expect(ZProviderInputValues.safeParse({ ...valid, outputFormat: 'gif' }).success).toBe(false);
    expect(ZProviderInputValues.safeParse({ ...valid, outputCompression: 101 }).success).toBe(false);
    expect(ZProviderInputValues.safeParse({ ...valid, outputCompression: -1 }).success).toBe(false);
    expect(ZProviderInputValues.safeParse({ ...valid, outputCompression: 50.5 }).success).toBe(false);
    expect(ZProviderInputValues.safeParse({ ...valid, outputCompression: 0 }).success).toBe(true);
    expect(ZProviderInputValues.safeParse({ ...valid, outputCompression: 100 }).success).toBe(true);
  });

  it('computes width over height', () => {
    expect(aspectRatioValue('3:2')).toBe(1.5);
    expect(aspectRatioValue('2:3')).toBeCloseTo(2 / 3);
    expect(aspectRatioValue('1:1')).toBe(1);
  });
});
