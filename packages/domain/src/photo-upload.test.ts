import { cleanFileName, isTooSmallToStage, looksLikeHeif, namesHeif } from './photo-upload';

const ftyp = (brand: string) => new Uint8Array([0, 0, 0, 24, ...Buffer.from(`ftyp${brand}`, 'latin1'), 0, 0, 0, 0]);

describe('photo upload rules', () => {
  it('recognises HEIF by its ftyp brand and not other ISO-BMFF files or JPEGs', () => {
    for (const brand of ['heic', 'heix', 'mif1', 'hevc']) expect(looksLikeHeif(ftyp(brand))).toBe(true);
    expect(looksLikeHeif(ftyp('avif'))).toBe(false);
    expect(looksLikeHeif(ftyp('isom'))).toBe(false);
    expect(looksLikeHeif(new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0, 0, 0, 0, 0, 0, 0]))).toBe(false);
    expect(looksLikeHeif(new Uint8Array(4))).toBe(false);
  });

  it('recognises HEIC by name or declared type', () => {
    expect(namesHeif('IMG_0042.HEIC', '')).toBe(true);
    expect(namesHeif('photo.heif', 'application/octet-stream')).toBe(true);
    expect(namesHeif('photo', 'image/heic-sequence')).toBe(true);
    expect(namesHeif('heic-kitchen.jpg', 'image/jpeg')).toBe(false);
  });

  it('warns below the 1024 px short edge the model renders at', () => {
    expect(isTooSmallToStage(1536, 1024)).toBe(false);
    expect(isTooSmallToStage(1600, 1023)).toBe(true);
    expect(isTooSmallToStage(800, 4000)).toBe(true);
  });

  it('keeps the base name of a file, bounded and without control characters', () => {
    expect(cleanFileName('C:\\fakepath\\kitchen.jpg')).toBe('kitchen.jpg');
    expect(cleanFileName('a/b/ bath\u0007room.png ')).toBe('bathroom.png');
    expect(cleanFileName('   ')).toBeNull();
    expect(cleanFileName(undefined)).toBeNull();
    expect(cleanFileName(`${'x'.repeat(300)}.jpg`)).toHaveLength(255);
  });
});
