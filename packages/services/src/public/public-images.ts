import { STAGED_DISCLOSURE_LABEL } from '@staging/contracts/public';
import type { PublicImageDto } from '@staging/contracts/public';
import type { Prisma } from '@staging/db/client';
import type { DerivativeSize } from '@staging/domain/image-derivatives';
import { publicCoverOf } from '@staging/domain/listing-cover';
import { IMAGE_TILE_SELECT } from '../images/image-dto';

/**
 * The only images anonymous surfaces may show: originals the agent left on the public page
 * (isPublic), and APPROVED staged variants of such an original (the unaltered photo must be
 * reachable from the staged one, so a legacy orphan without styledFromId stays private, and a
 * variant goes when its original is hidden). PENDING_REVIEW never matches.
 */
export const PUBLIC_IMAGE_WHERE = {
  OR: [
    { isStyled: false, isPublic: true },
    { isStyled: true, reviewStatus: 'APPROVED', styledFrom: { is: { isStyled: false, isPublic: true } } },
  ],
} as const satisfies Prisma.PropertyImageWhereInput;

/**
 * {@link PUBLIC_IMAGE_WHERE} in SQL over the property_images alias `i`, for the single-statement
 * public property read; toPublicImages re-checks every row either way.
 */
export const PUBLIC_IMAGE_SQL_CONDITION = `((NOT i."isStyled" AND i."isPublic") OR (i."reviewStatus" = 'APPROVED' AND EXISTS (
  SELECT 1 FROM "property_images" o WHERE o."id" = i."styledFromId" AND NOT o."isStyled" AND o."isPublic")))`;

export const PUBLIC_IMAGE_SELECT = IMAGE_TILE_SELECT;

export type PublicImageRow = Prisma.PropertyImageGetPayload<{ select: typeof PUBLIC_IMAGE_SELECT }>;

export function publicImageUrl(imageId: string): string {
  return `/api/public/images/${encodeURIComponent(imageId)}/content`;
}

/**
 * A resized copy of a public image (docs/decisions/public-pages.md "Image derivatives"): what gallery tiles
 * show instead of the full photo, cached no longer than a withdrawn image may stay visible
 * (`WITHDRAWN_IMAGE_BOUND_SECONDS`).
 */
export function publicDerivativeUrl(imageId: string, size: DerivativeSize): string {
  return `/api/public/images/${encodeURIComponent(imageId)}/derivatives/${size}`;
}

/**
 * Maps rows that passed PUBLIC_IMAGE_WHERE (in gallery order) to DTOs. The rows are re-checked
 * here as well: this function is the last step before data leaves the service, so a caller that
 * forgot the WHERE clause still cannot publish a pending variant or a hidden photo. The cover is
 * publicCoverOf's: the chosen public original, else the first one; never a staged image
 * (docs/system.md 1.5).
 */
export function toPublicImages(rows: readonly PublicImageRow[]): PublicImageDto[] {
  const originals = rows.filter((row) => !row.isStyled && row.isPublic);
  const originalIds = new Set(originals.map((row) => row.id));
  // A variant whose original is not in this list (hidden, or missing) would link nowhere; it is left out.
  const publishable = rows.filter(
    (row) => originalIds.has(row.id) || (row.isStyled && row.reviewStatus === 'APPROVED' && originalIds.has(row.styledFromId ?? '')),
  );
  const coverId = publicCoverOf(originals)?.id;
  return publishable.map((row) => ({
    id: row.id,
    url: publicImageUrl(row.id),
    width: row.width,
    height: row.height,
    displayOrder: row.displayOrder,
    isStyled: row.isStyled,
    isCover: row.id === coverId,
    roomType: row.roomType,
    style: row.isStyled ? (row.canonicalStyle ?? row.style) : null,
    label: row.isStyled ? STAGED_DISCLOSURE_LABEL : null,
    originalImageId: row.isStyled ? row.styledFromId : null,
    originalUrl: row.isStyled && row.styledFromId !== null ? publicImageUrl(row.styledFromId) : null,
  }));
}
