import sharp from 'sharp';
import type { Metadata } from 'sharp';
import type { DecodedOutputMetadata } from '@staging/domain/output-validation';

// A worker validates a few large outputs at a time and nothing else with sharp: libvips'
// operation cache would only keep decoded pixels of images never seen again, and one thread per
// operation keeps native memory per concurrent job small (docs/system.md 8 sizing: 4 jobs of 20 MiB).
sharp.cache(false);
sharp.concurrency(1);

/** Outputs bigger than this many pixels are refused before decoding (a decompression bomb guard). */
const MAX_INPUT_PIXELS = 64_000_000;

/**
 * Decodes the whole image with sharp to learn what the bytes really are. Reading the header
 * (metadata) is not enough: a truncated file has a perfect header. `failOn: 'truncated'` makes
 * libvips fail when the data ends early, and `stats()` forces every pixel through the decoder
 * without materializing a raw copy of the image.
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
  try {
    await sharp(bytes, { failOn: 'truncated', limitInputPixels: MAX_INPUT_PIXELS }).stats();
    return { ...base, ...header, isTruncated: false };
  } catch {
    // The header decoded but the pixel data did not: the file ends early or is corrupt inside.
    return { ...base, ...header, isTruncated: true };
  }
}
