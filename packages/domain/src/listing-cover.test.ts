import { coverRefusalOf, publicCoverOf } from './listing-cover';

const original = (id: string, options: { isMain?: boolean; isPublic?: boolean } = {}) => ({
  id,
  isMain: options.isMain ?? false,
  isStyled: false,
  isPublic: options.isPublic ?? true,
});
const staged = (id: string) => ({ id, isMain: false, isStyled: true, isPublic: true });

describe('publicCoverOf', () => {
  it('is the chosen public original, wherever it stands in the gallery', () => {
    expect(publicCoverOf([original('a'), staged('s'), original('b', { isMain: true })])?.id).toBe('b');
  });

  it('is the first public original when none was chosen', () => {
    expect(publicCoverOf([staged('s'), original('a', { isPublic: false }), original('b'), original('c')])?.id).toBe('b');
  });

  it('skips a chosen original that is hidden, as if none was chosen', () => {
    expect(publicCoverOf([original('a'), original('b', { isMain: true, isPublic: false })])?.id).toBe('a');
  });

  it('is nothing when no original is public, even with staged images', () => {
    expect(publicCoverOf([original('a', { isPublic: false }), staged('s')])).toBeUndefined();
    expect(publicCoverOf([])).toBeUndefined();
  });
});

describe('coverRefusalOf', () => {
  it('accepts a public original and refuses staged images and hidden originals', () => {
    expect(coverRefusalOf({ isStyled: false, isPublic: true })).toBeNull();
    expect(coverRefusalOf({ isStyled: false, isPublic: false })).toBe('HIDDEN');
    expect(coverRefusalOf({ isStyled: true, isPublic: true })).toBe('STAGED');
  });
});
