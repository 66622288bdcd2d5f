import { createHash } from 'node:crypto';
import type { ProviderAspectRatio, ProviderOutputFormat, ProviderQuality } from '@staging/domain/provider-values';

/**
 * The four provider inputs every producer persists with a new job and the worker uses to
 * materialize legacy messages; docs/system.md 2.9 requires them identical on web, api and worker.
 */
export interface ProducerValues {
  quality: ProviderQuality;
  aspectRatio: ProviderAspectRatio;
  outputFormat: ProviderOutputFormat;
  /** An integer within OUTPUT_COMPRESSION_RANGE. */
  outputCompression: number;
}

/**
 * Short, stable identifier of a producer-values set. Each role logs it at boot (and may attach it
 * to jobs) so a mismatch between web, api and worker shows up as two different fingerprints
 * without comparing four variables by hand.
 */
export function producerValuesFingerprint(p: ProducerValues): string {
  const canonical = [p.quality, p.aspectRatio, p.outputFormat, String(p.outputCompression)].join('|');
  return createHash('sha256').update(canonical).digest('hex').slice(0, 16);
}
