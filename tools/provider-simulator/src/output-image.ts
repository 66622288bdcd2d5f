/**
 * Produces the simulated model output from the real input photo with sharp: resized to the
 * requested aspect ratio, re-encoded in the requested format, and visibly changed (warm tint,
 * frame and banner) so a test can tell a staged result from its original.
 */
import { createHash } from 'node:crypto';
import sharp from 'sharp';

export const ASPECT_RATIOS = ['1:1', '3:2', '2:3'] as const;
export type AspectRatio = (typeof ASPECT_RATIOS)[number];
export const OUTPUT_FORMATS = ['jpeg', 'png', 'webp'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];
export const QUALITIES = ['low', 'medium', 'high', 'auto'] as const;

/** Pixel sizes the image model produces for each aspect ratio. */
export const OUTPUT_SIZES: Record<AspectRatio, { width: number; height: number }> = {
  '1:1': { width: 1024, height: 1024 },
  '3:2': { width: 1536, height: 1024 },
  '2:3': { width: 1024, height: 1536 },
};

export const CONTENT_TYPES: Record<OutputFormat, string> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
};

/** A size whose ratio differs from the requested one, for the wrong_aspect_ratio fault. */
export function wrongSizeFor(aspectRatio: AspectRatio): { width: number; height: number } {
  return aspectRatio === '1:1' ? OUTPUT_SIZES['3:2'] : OUTPUT_SIZES['1:1'];
}

function solid(
  width: number,
  height: number,
  background: { r: number; g: number; b: number; alpha: number },
): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 4, background } })
    .png()
    .toBuffer();
}

export interface RenderOptions {
  input: Buffer;
  width: number;
  height: number;
  format: OutputFormat;
  compression: number;
}

export async function renderStagedImage(options: RenderOptions): Promise<Buffer> {
  const { width, height } = options;
  // Two pipelines on purpose: sharp runs colour operations after compositing within one
  // pipeline, which would wash the frame and banner into the tint.
  const warmed = await sharp(options.input)
    .rotate()
    .resize(width, height, { fit: 'cover' })
    .modulate({ saturation: 0.8 })
    .linear([1.08, 1.0, 0.85], [12, 4, -8])
    .toBuffer();
  const border = Math.round(Math.min(width, height) / 40);
  const bannerHeight = Math.round(height / 8);
  const gold = { r: 240, g: 180, b: 40, alpha: 1 };
  const [horizontal, vertical, banner] = await Promise.all([
    solid(width, border, gold),
    solid(border, height, gold),
    solid(width, bannerHeight, { r: 30, g: 110, b: 220, alpha: 0.75 }),
  ]);
  const staged = sharp(warmed).composite([
    { input: banner, top: height - bannerHeight, left: 0 },
    { input: horizontal, top: 0, left: 0 },
    { input: horizontal, top: height - border, left: 0 },
    { input: vertical, top: 0, left: 0 },
    { input: vertical, top: 0, left: width - border },
  ]);
  // output_compression follows the OpenAI image API: 100 = least compression (best quality).
  const quality = Math.max(1, Math.min(100, options.compression));
  switch (options.format) {
    case 'jpeg':
      return staged.jpeg({ quality }).toBuffer();
    case 'webp':
      return staged.webp({ quality }).toBuffer();
    case 'png':
      return staged.png().toBuffer();
  }
}

/**
 * renderStagedImage memoized by input digest and parameters (rendering is deterministic). A test
 * that stages one photo a hundred times pays for one render: a real provider spends its CPU on its
 * own machines, and a simulator that saturated the test machine's cores would measure itself
 * instead of the code under test. Concurrent calls for one key share the render; failures are not
 * kept.
 */
export function memoizedRenderer(
  maxEntries = 16,
  render: (options: RenderOptions) => Promise<Buffer> = renderStagedImage,
): (options: RenderOptions) => Promise<Buffer> {
  const cache = new Map<string, Promise<Buffer>>();
  return (options) => {
    const digest = createHash('sha256').update(options.input).digest('hex');
    const key = `${digest}:${options.width}x${options.height}:${options.format}:${options.compression}`;
    const hit = cache.get(key);
    if (hit !== undefined) {
      // Re-insert so the Map's insertion order is least-recently-used first.
      cache.delete(key);
      cache.set(key, hit);
      return hit;
    }
    const rendered = render(options);
    cache.set(key, rendered);
    rendered.catch(() => cache.delete(key));
    while (cache.size > maxEntries) cache.delete(cache.keys().next().value as string);
    return rendered;
  };
}
