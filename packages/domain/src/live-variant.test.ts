import { isLiveVariantOf, splitByLiveVariant } from './live-variant';
import type { VariantFacts } from './live-variant';

const original = (): VariantFacts => ({ isStyled: false, styledFromId: null, canonicalStyle: null, reviewStatus: null });
const variant = (of: string, style: string, reviewStatus: VariantFacts['reviewStatus']): VariantFacts => ({
  isStyled: true,
  styledFromId: of,
  canonicalStyle: style,
  reviewStatus,
});

describe('isLiveVariantOf', () => {
  it('holds for a staged image of that original in that style, pending or approved', () => {
    expect(isLiveVariantOf(variant('a', 'MODERN', 'PENDING_REVIEW'), 'a', 'MODERN')).toBe(true);
    expect(isLiveVariantOf(variant('a', 'MODERN', 'APPROVED'), 'a', 'MODERN')).toBe(true);
  });

  it('does not hold for another style, another original, an original or a variant without a review status', () => {
    expect(isLiveVariantOf(variant('a', 'COASTAL', 'APPROVED'), 'a', 'MODERN')).toBe(false);
    expect(isLiveVariantOf(variant('b', 'MODERN', 'APPROVED'), 'a', 'MODERN')).toBe(false);
    expect(isLiveVariantOf(original(), 'a', 'MODERN')).toBe(false);
    expect(isLiveVariantOf(variant('a', 'MODERN', null), 'a', 'MODERN')).toBe(false);
    expect(isLiveVariantOf({ ...variant('a', 'MODERN', 'APPROVED'), isStyled: false }, 'a', 'MODERN')).toBe(false);
  });
});

describe('splitByLiveVariant', () => {
  it('counts only the photos a submission in the style will stage, and names the ones already staged', () => {
    const images = [original(), original(), original(), variant('old', 'MODERN', 'APPROVED'), variant('other', 'COASTAL', 'PENDING_REVIEW')];
    expect(splitByLiveVariant(['old', 'new', 'other'], 'MODERN', images)).toEqual({ toStage: ['new', 'other'], alreadyStaged: ['old'] });
    expect(splitByLiveVariant(['other', 'old'], 'COASTAL', images)).toEqual({ toStage: ['old'], alreadyStaged: ['other'] });
    expect(splitByLiveVariant([], 'MODERN', images)).toEqual({ toStage: [], alreadyStaged: [] });
  });
});
