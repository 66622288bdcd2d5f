import { describe, expect, it } from '@jest/globals';
import sharp from 'sharp';
import type { Region, Sharp } from 'sharp';
import { ASPECT_RATIOS, memoizedRenderer, OUTPUT_SIZES, renderStagedImage, wrongSizeFor } from './output-image';
import { makeTestPhoto } from './test-photo';

// sharp's stats() describes the pipeline's *input*, so a crop must be rendered before measuring.
async function regionStats(image: Buffer | Sharp, region: Region) {
  const pipeline = Buffer.isBuffer(image) ? sharp(image) : image;
  return sharp(await pipeline.extract(region).png().toBuffer()).stats();
}

describe('output sizes', () => {
  it('matches each aspect ratio exactly', () => {
    for (const ratio of ASPECT_RATIOS) {
      const [w, h] = ratio.split(':').map(Number);
      const size = OUTPUT_SIZES[ratio];
      expect(size.width * (h ?? 0)).toBe(size.height * (w ?? 0));
    }
  });

  it('always picks a different ratio for the wrong_aspect_ratio fault', () => {
    for (const ratio of ASPECT_RATIOS) {
      const right = OUTPUT_SIZES[ratio];
      const wrong = wrongSizeFor(ratio);
      expect(wrong.width / wrong.height).not.toBeCloseTo(right.width / right.height, 3);
    }
  });
});

describe('renderStagedImage', () => {
  it('honours output_compression for lossy formats (lower = smaller file)', async () => {
    const input = await makeTestPhoto();
    const high = await renderStagedImage({ input, width: 1024, height: 1024, format: 'jpeg', compression: 95 });
    const low = await renderStagedImage({ input, width: 1024, height: 1024, format: 'jpeg', compression: 10 });
    expect(low.length).toBeLessThan(high.length);
    expect((await sharp(low).metadata()).format).toBe('jpeg');
  });

  it('draws a banner along the bottom edge so the result differs from the photo', async () => {
    const input = await makeTestPhoto();
    const out = await renderStagedImage({ input, width: 1024, height: 1024, format: 'png', compression: 100 });
    const bottom = await regionStats(out, { left: 200, top: 920, width: 600, height: 60 });
    const [red, , blue] = bottom.channels;
    expect((blue?.mean ?? 0) - (red?.mean ?? 0)).toBeGreaterThan(30);
  });

  it('keeps the photo recognisable (structure survives, not a flat wash)', async () => {
    const input = await makeTestPhoto();
    const out = await renderStagedImage({ input, width: 1536, height: 1024, format: 'png', compression: 100 });
    const region = { left: 400, top: 200, width: 700, height: 500 };
    const before = await regionStats(sharp(input).resize(1536, 1024, { fit: 'cover' }), region);
    const after = await regionStats(out, region);
    for (let channel = 0; channel < 3; channel += 1) {
      // Variation inside the picture is kept (the checkerboard and gradients stay visible) ...
      expect(after.channels[channel]?.stdev ?? 0).toBeGreaterThan((before.channels[channel]?.stdev ?? 0) * 0.5);
    }
    // ... while the colours are visibly shifted.
    const drift = [0, 1, 2].reduce((sum, c) => sum + Math.abs((after.channels[c]?.mean ?? 0) - (before.channels[c]?.mean ?? 0)), 0);
    expect(drift).toBeGreaterThan(10);
  });
});

describe('memoizedRenderer', () => {
  const options = (input: Buffer, compression = 90) =>
    ({ input, width: 300, height: 200, format: 'jpeg', compression }) as const;

  it('renders each input and parameter set once and shares concurrent renders', async () => {
    const renders: number[] = [];
    const render = memoizedRenderer(4, async (o) => {
      renders.push(o.compression);
      return Buffer.from(`out-${o.compression}-${o.input.toString()}`);
    });
    const [a, b] = await Promise.all([
      render(options(Buffer.from('photo'))),
      render(options(Buffer.from('photo'))),
    ]);
    expect(a).toBe(b);
    await render(options(Buffer.from('photo'), 40));
    await render(options(Buffer.from('other photo')));
    expect(renders).toEqual([90, 40, 90]);
  });

  it('evicts the least recently used entry beyond its size', async () => {
    let renders = 0;
    const render = memoizedRenderer(2, async (o) => {
      renders += 1;
      return o.input;
    });
    await render(options(Buffer.from('a')));
    await render(options(Buffer.from('b')));
    await render(options(Buffer.from('a'))); // a is now the most recent
    await render(options(Buffer.from('c'))); // evicts b
    await render(options(Buffer.from('a')));
    expect(renders).toBe(3);
    await render(options(Buffer.from('b')));
    expect(renders).toBe(4);
  });

  it('does not keep a failed render', async () => {
    let calls = 0;
    const render = memoizedRenderer(4, async () => {
      calls += 1;
      if (calls === 1) throw new Error('not an image');
      return Buffer.from('ok');
    });
    await expect(render(options(Buffer.from('x')))).rejects.toThrow('not an image');
    await expect(render(options(Buffer.from('x')))).resolves.toEqual(Buffer.from('ok'));
  });

  it('memoizes the real renderer to identical bytes', async () => {
    const render = memoizedRenderer();
    const input = await makeTestPhoto();
    const first = await render({ input, width: 600, height: 400, format: 'jpeg', compression: 80 });
    expect(
      await render({ input: Buffer.from(input), width: 600, height: 400, format: 'jpeg', compression: 80 }),
    ).toBe(first);
    expect(
      first.equals(
        await renderStagedImage({ input, width: 600, height: 400, format: 'jpeg', compression: 80 }),
      ),
    ).toBe(true);
  });
});
