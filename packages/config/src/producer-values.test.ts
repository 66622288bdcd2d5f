import fc from 'fast-check';
import {
  OUTPUT_COMPRESSION_RANGE,
  PROVIDER_ASPECT_RATIOS,
  PROVIDER_OUTPUT_FORMATS,
  PROVIDER_QUALITIES,
} from '@staging/domain/provider-values';
import { producerValuesFingerprint } from './producer-values';
import type { ProducerValues } from './producer-values';

const initial: ProducerValues = { quality: 'medium', aspectRatio: '1:1', outputFormat: 'jpeg', outputCompression: 92 };

const producerValues = fc.record({
  quality: fc.constantFrom(...PROVIDER_QUALITIES),
  aspectRatio: fc.constantFrom(...PROVIDER_ASPECT_RATIOS),
  outputFormat: fc.constantFrom(...PROVIDER_OUTPUT_FORMATS),
  outputCompression: fc.integer(OUTPUT_COMPRESSION_RANGE),
});

describe('producerValuesFingerprint', () => {
  it('is a fixed 16-hex digest of quality|aspectRatio|outputFormat|outputCompression', () => {
    // sha256("medium|1:1|jpeg|92"), first 16 hex characters: pinned so every role and release agrees.
    expect(producerValuesFingerprint(initial)).toBe('4f1dbecc720f0f87');
  });

  it('does not depend on property order', () => {
    const reordered = { outputCompression: 92, outputFormat: 'jpeg', aspectRatio: '1:1', quality: 'medium' } as const;
    expect(producerValuesFingerprint(reordered)).toBe(producerValuesFingerprint(initial));
  });

  it('changes when any one of the four values changes', () => {
    const base = producerValuesFingerprint(initial);
    expect(producerValuesFingerprint({ ...initial, quality: 'high' })).not.toBe(base);
    expect(producerValuesFingerprint({ ...initial, aspectRatio: '3:2' })).not.toBe(base);
    expect(producerValuesFingerprint({ ...initial, outputFormat: 'png' })).not.toBe(base);
    expect(producerValuesFingerprint({ ...initial, outputCompression: 91 })).not.toBe(base);
  });

  it('distinguishes every pair of distinct value sets (property)', () => {
    fc.assert(
      fc.property(producerValues, producerValues, (a, b) => {
        const same = a.quality === b.quality && a.aspectRatio === b.aspectRatio && a.outputFormat === b.outputFormat &&
          a.outputCompression === b.outputCompression;
        expect(producerValuesFingerprint(a) === producerValuesFingerprint(b)).toBe(same);
      }),
    );
  });
});
