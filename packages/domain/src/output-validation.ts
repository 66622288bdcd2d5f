import { aspectRatioValue } from './provider-values';
import type { ProviderAspectRatio, ProviderOutputFormat } from './provider-values';
import type { StagingErrorCode } from './staging-errors';

/** Download ceiling for a provider output: 20 MiB (docs/system.md 8). */
export const MAX_OUTPUT_BYTES = 20 * 1024 * 1024;

/**
 * Allowed relative difference between the output's width/height and the requested ratio. Models
 * round dimensions to multiples of 8 or 16 (e.g. 1536×1024 for 3:2 is exact, but 1248×832-style
 * sizes are off by a fraction of a percent); 2 % accepts rounding and still refuses 1:1 vs 3:2
 * or a swapped 3:2 / 2:3 by a wide margin.
 */
export const ASPECT_RATIO_TOLERANCE = 0.02;

/** What the worker learned by decoding the downloaded bytes (e.g. with sharp). */
export interface DecodedOutputMetadata {
  byteLength: number;
  /** Decoder's format name (`jpeg`, `png`, `webp`, `gif`, …), or null when nothing decoded. */
  format: string | null;
  width: number | null;
  height: number | null;
  /** True when the decoder hit the end of data before the image was complete. */
  isTruncated: boolean;
}

/** What the job asked the provider for. */
export interface RequestedOutput {
  aspectRatio: ProviderAspectRatio;
  outputFormat: ProviderOutputFormat;
}

/** Outcome of {@link validateOutputMetadata}. */
export type OutputValidation =
  | { ok: true; format: ProviderOutputFormat; width: number; height: number }
  | { ok: false; errorCode: StagingErrorCode; message: string };

/** True while a streamed download is still within {@link MAX_OUTPUT_BYTES}. */
export function isWithinOutputLimit(bytesSoFar: number): boolean {
  return bytesSoFar <= MAX_OUTPUT_BYTES;
}

/** Normalizes decoder and MIME spellings (`jpg`, `image/jpeg`) to the provider's format names. */
export function normalizeImageFormat(format: string): string {
  const bare = format.trim().toLowerCase().replace(/^image\//, '');
  return bare === 'jpg' ? 'jpeg' : bare;
}

/**
 * True when width/height is within {@link ASPECT_RATIO_TOLERANCE} of the requested ratio.
 */
export function matchesAspectRatio(width: number, height: number, aspectRatio: ProviderAspectRatio): boolean {
  if (!(width > 0 && height > 0)) return false;
  const expected = aspectRatioValue(aspectRatio);
  return Math.abs(width / height - expected) / expected <= ASPECT_RATIO_TOLERANCE;
}

/**
 * Checks a decoded provider output, in order: size ceiling, decodable image, not truncated,
 * requested format, requested aspect ratio. The first broken rule wins, so the recorded error code
 * names the most basic problem.
 */
export function validateOutputMetadata(meta: DecodedOutputMetadata, requested: RequestedOutput): OutputValidation {
  if (meta.byteLength > MAX_OUTPUT_BYTES) {
    return { ok: false, errorCode: 'OUTPUT_TOO_LARGE', message: `Output is ${meta.byteLength} bytes; the ceiling is ${MAX_OUTPUT_BYTES}.` };
  }
  if (meta.byteLength === 0 || meta.format === null || !isPositiveInteger(meta.width) || !isPositiveInteger(meta.height)) {
    return { ok: false, errorCode: 'OUTPUT_NOT_IMAGE', message: 'Output is not a decodable image.' };
  }
  if (meta.isTruncated) {
    return { ok: false, errorCode: 'OUTPUT_TRUNCATED', message: 'Output image data ends before the image is complete.' };
  }
  const format = normalizeImageFormat(meta.format);
  if (format !== requested.outputFormat) {
    return { ok: false, errorCode: 'OUTPUT_WRONG_FORMAT', message: `Output is ${format}; ${requested.outputFormat} was requested.` };
  }
  if (!matchesAspectRatio(meta.width, meta.height, requested.aspectRatio)) {
    return {
      ok: false,
      errorCode: 'OUTPUT_WRONG_ASPECT_RATIO',
      message: `Output is ${meta.width}×${meta.height}; aspect ratio ${requested.aspectRatio} was requested.`,
    };
  }
  return { ok: true, format: requested.outputFormat, width: meta.width, height: meta.height };
}

function isPositiveInteger(value: number | null): value is number {
  return value !== null && Number.isInteger(value) && value > 0;
}
