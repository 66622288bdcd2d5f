import { derivativeEtag, derivativeObjectKey, derivativeObjectKeys, ifNoneMatchHits, isDerivativeSize } from './image-derivatives';

describe('image derivatives', () => {
  it('keeps every derivative under its source key so a deletion finds them all', () => {
    expect(derivativeObjectKey('originals/p/i.jpg', 'thumb')).toBe('derivatives/v1/originals/p/i.jpg/thumb.webp');
    expect(derivativeObjectKeys('originals/p/i.jpg')).toEqual([
      'derivatives/v1/originals/p/i.jpg/thumb.webp',
      'derivatives/v1/originals/p/i.jpg/display.webp',
    ]);
  });

  it('knows only its own sizes (no prototype keys)', () => {
    expect(isDerivativeSize('thumb')).toBe(true);
    expect(isDerivativeSize('constructor')).toBe(false);
  });

  it('matches If-None-Match lists, weak forms and *, and nothing else', () => {
    const etag = derivativeEtag('abc', 'thumb');
    expect(ifNoneMatchHits(etag, etag)).toBe(true);
    expect(ifNoneMatchHits(`"x", W/${etag}`, etag)).toBe(true);
    expect(ifNoneMatchHits('*', etag)).toBe(true);
    expect(ifNoneMatchHits(derivativeEtag('abc', 'display'), etag)).toBe(false);
    expect(ifNoneMatchHits(undefined, etag)).toBe(false);
  });
});
