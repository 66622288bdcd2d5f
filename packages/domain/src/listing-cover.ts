/**
 * Which photo is a listing's cover, shared by the public surfaces, the search document, the
 * agent's dashboard and the procedures that change it, so they all name the same photo.
 */

/** What the cover rule reads of an image. */
export interface CoverCandidate {
  isMain: boolean;
  isStyled: boolean;
  /** Read on originals only (a staged image is never a candidate); null counts as hidden. */
  isPublic: boolean | null;
}

/**
 * The cover visitors see, from images in gallery order: the public original the agent chose
 * (isMain), else the first public original. Never a staged image (docs/system.md 1.5) and never a
 * photo the agent hid; undefined when no original is public.
 */
export function publicCoverOf<T extends CoverCandidate>(imagesInGalleryOrder: readonly T[]): T | undefined {
  const candidates = imagesInGalleryOrder.filter((image) => !image.isStyled && image.isPublic === true);
  return candidates.find((image) => image.isMain) ?? candidates[0];
}

/** Why an image cannot be chosen as the cover: a staged image, or an original hidden from the public page. */
export type CoverRefusal = 'STAGED' | 'HIDDEN';

export function coverRefusalOf(image: Omit<CoverCandidate, 'isMain'>): CoverRefusal | null {
  if (image.isStyled) return 'STAGED';
  if (image.isPublic !== true) return 'HIDDEN';
  return null;
}
