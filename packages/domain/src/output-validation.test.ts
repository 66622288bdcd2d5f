import {
  ASPECT_RATIO_TOLERANCE,
  MAX_OUTPUT_BYTES,
  isWithinOutputLimit,
  matchesAspectRatio,
  normalizeImageFormat,
  validateOutputMetadata,
} from './output-validation';
import type { DecodedOutputMetadata } from './output-validation';
import { PROVIDER_ASPECT_RATIOS, aspectRatioValue } from './provider-values';

const good: DecodedOutputMetadata = { byteLength: 4_000_000, format: 'jpeg', width: 1536, height: 1024, isTruncated: false };
const requested = { aspectRatio: '3:2', outputFormat: 'jpeg' } as const;

describe('output validation', () => {
  it('caps outputs at exactly 20 MiB', () => {
    expect(MAX_OUTPUT_BYTES).toBe(20_971_520);
    expect(isWithinOutputLimit(MAX_OUTPUT_BYTES)).toBe(true);
    expect(isWithinOutputLimit(MAX_OUTPUT_BYTES + 1)).toBe(false);
    expect(validateOutputMetadata({ ...good, byteLength: MAX_OUTPUT_BYTES }, requested).ok).toBe(true);
    expect(validateOutputMetadata({ ...good, byteLength: MAX_OUTPUT_BYTES + 1 }, requested)).toMatchObject({
      ok: false,
      errorCode: 'OUTPUT_TOO_LARGE',
    });
  });

  it('accepts a matching output and reports the normalized format', () => {
    expect(validateOutputMetadata({ ...good, format: 'JPG' }, requested)).toEqual({ ok: true, format: 'jpeg', width: 1536, height: 1024 });
  });

  it.each([
    [{ byteLength: 0 }, 'OUTPUT_NOT_IMAGE'],
    [{ format: null }, 'OUTPUT_NOT_IMAGE'],
    [{ width: null }, 'OUTPUT_NOT_IMAGE'],
    [{ height: 0 }, 'OUTPUT_NOT_IMAGE'],
    [{ width: 15.5 }, 'OUTPUT_NOT_IMAGE'],
    [{ isTruncated: true }, 'OUTPUT_TRUNCATED'],
    [{ format: 'png' }, 'OUTPUT_WRONG_FORMAT'],
    [{ format: 'gif' }, 'OUTPUT_WRONG_FORMAT'],
    [{ width: 1024, height: 1024 }, 'OUTPUT_WRONG_ASPECT_RATIO'],
    [{ width: 1024, height: 1536 }, 'OUTPUT_WRONG_ASPECT_RATIO'],
  ] as const)('%j fails with %s', (change, errorCode) => {
    expect(validateOutputMetadata({ ...good, ...change }, requested)).toMatchObject({ ok: false, errorCode });
  });

  it('checks the most basic problem first', () => {
    expect(validateOutputMetadata({ ...good, byteLength: MAX_OUTPUT_BYTES + 1, format: null }, requested)).toMatchObject({
      errorCode: 'OUTPUT_TOO_LARGE',
    });
    expect(validateOutputMetadata({ ...good, isTruncated: true, format: 'png' }, requested)).toMatchObject({
      errorCode: 'OUTPUT_TRUNCATED',
    });
  });

  it('allows rounding within the tolerance and refuses beyond it', () => {
    for (const ratio of PROVIDER_ASPECT_RATIOS) {
      const height = 1000;
      const exact = aspectRatioValue(ratio) * height;
      expect(matchesAspectRatio(Math.round(exact * (1 + ASPECT_RATIO_TOLERANCE * 0.9)), height, ratio)).toBe(true);
      expect(matchesAspectRatio(Math.round(exact * (1 - ASPECT_RATIO_TOLERANCE * 0.9)), height, ratio)).toBe(true);
      expect(matchesAspectRatio(Math.round(exact * (1 + ASPECT_RATIO_TOLERANCE * 1.5)), height, ratio)).toBe(false);
      expect(matchesAspectRatio(Math.round(exact * (1 - ASPECT_RATIO_TOLERANCE * 1.5)), height, ratio)).toBe(false);
    }
    expect(matchesAspectRatio(1248, 832, '3:2')).toBe(true);
    expect(matchesAspectRatio(1024, 1536, '2:3')).toBe(true);
    expect(matchesAspectRatio(0, 0, '1:1')).toBe(false);
  });

  it('normalizes format spellings', () => {
    expect(normalizeImageFormat('image/jpeg')).toBe('jpeg');
    expect(normalizeImageFormat(' WEBP ')).toBe('webp');
    expect(normalizeImageFormat('jpg')).toBe('jpeg');
  });
});
