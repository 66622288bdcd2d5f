/**
 * Resized copies of stored images (docs/decisions/public-pages.md "Image derivatives"). An image's
 * bytes never change under its ID (originals are never replaced, approval does not rewrite pixels), so a
 * derivative is fully named by (object key, size, recipe version): that is its storage key and
 * its ETag, and a 304 can be answered without touching storage.
 */

/**
 * thumb: the dashboard tiles are 120–246 CSS px wide, 480 px covers them at 2x density.
 * display: the largest size a listing page or the compare view shows; public full-size views
 * get this too, because it is re-encoded without metadata (EXIF GPS never leaves).
 */
export const DERIVATIVE_SIZES = {
  thumb: { maxEdge: 480, quality: 78 },
  display: { maxEdge: 2048, quality: 85 },
} as const;

export type DerivativeSize = keyof typeof DERIVATIVE_SIZES;

export const DERIVATIVE_CONTENT_TYPE = 'image/webp';

/** Bumped when a recipe changes, so old keys and ETags are never served for the new recipe. */
const RECIPE_VERSION = 'v1';

export function isDerivativeSize(value: string): value is DerivativeSize {
  return Object.hasOwn(DERIVATIVE_SIZES, value);
}

/** Storage key of one derivative: under its source's key, so deleting a source finds them all. */
export function derivativeObjectKey(sourceKey: string, size: DerivativeSize): string {
  return `derivatives/${RECIPE_VERSION}/${sourceKey}/${size}.webp`;
}

/** Every derivative key a source object may have (deleted together with the source). */
export function derivativeObjectKeys(sourceKey: string): string[] {
  return Object.keys(DERIVATIVE_SIZES).filter(isDerivativeSize).map((size) => derivativeObjectKey(sourceKey, size));
}

/** Strong ETag of a derivative: the image ID names immutable bytes, the size and recipe the rest. */
export function derivativeEtag(imageId: string, size: DerivativeSize): string {
  return `"${RECIPE_VERSION}-${size}-${imageId}"`;
}

/**
 * True when an If-None-Match header names `etag` (a list, a weak form of it, or `*`), per RFC 9110
 * 13.1.2 (weak comparison).
 */
export function ifNoneMatchHits(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const wanted = etag.replace(/^W\//, '');
  return header.split(',').some((candidate) => {
    const tag = candidate.trim();
    return tag === '*' || tag.replace(/^W\//, '') === wanted;
  });
}
