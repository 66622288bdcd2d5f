import { toPublicImages } from './public-images';
import type { PublicImageRow } from './public-images';

const row = (id: string, fields: Partial<PublicImageRow> = {}): PublicImageRow => ({
  id,
  width: 1200,
  height: 800,
  displayOrder: 0,
  isMain: false,
  isStyled: false,
  isPublic: true,
  styledFromId: null,
  style: null,
  canonicalStyle: null,
  roomType: null,
  reviewStatus: null,
  ...fields,
});
const approvedVariantOf = (id: string, originalId: string) =>
  row(id, { isStyled: true, styledFromId: originalId, reviewStatus: 'APPROVED', canonicalStyle: 'COASTAL' });

// The last check before data leaves the service: it must hold even for rows a query let through.
describe('toPublicImages', () => {
  it('leaves out a hidden original and its approved variants, whatever the query returned', () => {
    const images = toPublicImages([
      row('hidden', { isPublic: false, isMain: true }),
      approvedVariantOf('hidden-staged', 'hidden'),
      row('shown'),
      approvedVariantOf('shown-staged', 'shown'),
    ]);
    expect(images.map((image) => image.id)).toEqual(['shown', 'shown-staged']);
    expect(images.find((image) => image.isCover)?.id).toBe('shown');
  });

  it('leaves out pending variants and variants without their original', () => {
    const images = toPublicImages([
      row('a'),
      row('pending', { isStyled: true, styledFromId: 'a', reviewStatus: 'PENDING_REVIEW' }),
      approvedVariantOf('orphan', 'gone'),
    ]);
    expect(images.map((image) => image.id)).toEqual(['a']);
  });

  it('labels and links an approved variant and never makes it the cover', () => {
    const [original, staged] = toPublicImages([row('a'), { ...approvedVariantOf('s', 'a'), isMain: true }]);
    expect(original).toMatchObject({ isCover: true, label: null, originalImageId: null });
    expect(staged).toMatchObject({ isCover: false, label: 'AI · Virtually staged', originalImageId: 'a', originalUrl: '/api/public/images/a/content' });
  });
});
