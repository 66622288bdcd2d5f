import sharp from 'sharp';
import type { Metadata } from 'sharp';
import type { DecodedOutputMetadata } from '@staging/domain/output-validation';
import { decodesCompletely } from '@staging/services/images/decodes-completely';

// A worker validates a few large outputs at a time and nothing else with sharp: libvips'
// operation cache would only keep decoded pixels of images never seen again, and one thread per
// operation keeps native memory per concurrent job small (docs/system.md 8 sizing: 4 jobs of 20 MiB).
sharp.cache(false);
sharp.concurrency(1);

/** Outputs bigger than this many pixels are refused before decoding (a decompression bomb guard). */
const MAX_INPUT_PIXELS = 64_000_000;

/**
 * What the bytes really are: format and size from the header, and whether the image data decodes
 * to its end (a truncated file has a perfect header).
 */
export async function inspectOutput(bytes: Buffer): Promise<DecodedOutputMetadata> {
  const base = { byteLength: bytes.length };
  let meta: Metadata;
  try {
    meta = await sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS }).metadata();
  } catch {
    return { ...base, format: null, width: null, height: null, isTruncated: false };
  }
  const header = { format: meta.format ?? null, width: meta.width ?? null, height: meta.height ?? null };
  return { ...base, ...header, isTruncated: !(await decodesCompletely(bytes, MAX_INPUT_PIXELS)) };
}
