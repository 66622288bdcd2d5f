import sharp from 'sharp';

/**
 * A real JPEG photo stand-in for tests: a colour gradient with a checker pattern, so that the
 * simulator's output (a derivative of its input) is a real photo too. 3:2 by default.
 */
export async function makeTestPhoto(size: { width: number; height: number } = { width: 900, height: 600 }): Promise<Buffer> {
  const { width, height } = size;
  const raw = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const i = (y * width + x) * 3;
      raw[i] = Math.floor((x / width) * 200);
      raw[i + 1] = Math.floor((y / height) * 180);
      raw[i + 2] = (x >> 5) % 2 === (y >> 5) % 2 ? 40 : 120;
    }
  }
  return sharp(raw, { raw: { width, height, channels: 3 } }).jpeg({ quality: 90 }).toBuffer();
}
