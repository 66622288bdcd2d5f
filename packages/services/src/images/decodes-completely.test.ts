import sharp from 'sharp';
import { decodesCompletely } from './decodes-completely';

const LIMIT = 64_000_000;

/** Noise compresses badly, so every part of the file carries image data. */
function noise(width: number, height: number, channels: 3 | 4) {
  const pixels = Buffer.alloc(width * height * channels);
  for (let i = 0; i < pixels.length; i++) pixels[i] = (i * 7919 + (i >> 3) * 104_729) % 251;
  return sharp(pixels, { raw: { width, height, channels } });
}

const ENCODINGS: [string, () => Promise<Buffer>][] = [
  ['baseline JPEG', () => noise(320, 240, 3).jpeg().toBuffer()],
  ['progressive JPEG', () => noise(320, 240, 3).jpeg({ progressive: true }).toBuffer()],
  ['PNG', () => noise(320, 240, 3).png().toBuffer()],
  ['16-bit PNG with alpha', () => noise(320, 240, 4).png().toColourspace('rgb16').toBuffer()],
  ['lossy WebP', () => noise(320, 240, 3).webp().toBuffer()],
  ['lossless WebP', () => noise(320, 240, 3).webp({ lossless: true }).toBuffer()],
  ['1x1 JPEG', () => noise(1, 1, 3).jpeg().toBuffer()],
];

describe('decodesCompletely', () => {
  it.each(ENCODINGS)('accepts a complete %s', async (_name, encode) => {
    expect(await decodesCompletely(await encode(), LIMIT)).toBe(true);
  });

  it.each(ENCODINGS.slice(0, 6))('refuses a %s cut at 10%%, 50%% or 90%% of its bytes', async (_name, encode) => {
    const bytes = await encode();
    for (const share of [0.1, 0.5, 0.9]) {
      expect(await decodesCompletely(bytes.subarray(0, Math.floor(bytes.length * share)), LIMIT)).toBe(false);
    }
  });

  it.each(ENCODINGS.filter(([name]) => !name.includes('PNG')))('refuses a %s missing only its last byte', async (_name, encode) => {
    const bytes = await encode();
    expect(await decodesCompletely(bytes.subarray(0, bytes.length - 1), LIMIT)).toBe(false);
  });

  it('refuses a PNG whose compressed rows are damaged inside', async () => {
    const bytes = Buffer.from(await noise(320, 240, 3).png().toBuffer());
    for (let i = 0; i < 50; i++) bytes[Math.floor(bytes.length / 2) + i * 7]! ^= 0xff;
    expect(await decodesCompletely(bytes, LIMIT)).toBe(false);
  });

  it('refuses bytes that are not an image, and an image over the pixel limit', async () => {
    expect(await decodesCompletely(Buffer.from('<html>not an image</html>'), LIMIT)).toBe(false);
    expect(await decodesCompletely(await noise(320, 240, 3).jpeg().toBuffer(), 320 * 240 - 1)).toBe(false);
  });
});
