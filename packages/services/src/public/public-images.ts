import type { Prisma } from '@staging/db/client';
import type { DerivativeSize } from '@staging/domain/image-derivatives';
import { IMAGE_TILE_SELECT } from '../images/image-dto';

/**
 * Disclosure shown on every staged image anonymous visitors see (docs/system.md 3.2). The text is part
 * of the contract with clients and the search document; it is not localized.
 */
export const STAGED_DISCLOSURE_LABEL = 'AI · Virtually staged';

/**
 * The only images anonymous surfaces may show: originals, and APPROVED staged variants that still
 * have their original (the unaltered photo must be reachable from the staged one, so a legacy
 * orphan without styledFromId stays private). PENDING_REVIEW never matches.
 */
export const PUBLIC_IMAGE_WHERE = {
  OR: [{ isStyled: false }, { isStyled: true, reviewStatus: 'APPROVED', styledFromId: { not: null } }],
} as const satisfies Prisma.PropertyImageWhereInput;

/**
 * {@link PUBLIC_IMAGE_WHERE} in SQL over the property_images alias `i`, for the single-statement
 * public property read; toPublicImages re-checks every row either way.
 */
export const PUBLIC_IMAGE_SQL_CONDITION = `(NOT i."isStyled" OR (i."reviewStatus" = 'APPROVED' AND i."styledFromId" IS NOT NULL))`;

export const PUBLIC_IMAGE_SELECT = IMAGE_TILE_SELECT;

export type PublicImageRow = Prisma.PropertyImageGetPayload<{ select: typeof PUBLIC_IMAGE_SELECT }>;

export interface PublicImageDto {
  id: string;
  /** Anonymous content route that serves only originals and APPROVED variants. */
  url: string;
  width: number;
  height: number;
  displayOrder: number;
  isStyled: boolean;
  /** True for exactly one original per property when it has any; never for a staged image. */
  isCover: boolean;
  roomType: string | null;
  style: string | null;
  /** STAGED_DISCLOSURE_LABEL on staged images, null on originals. */
  label: string | null;
  /** The unaltered photo a staged image derives from (null on originals). */
  originalImageId: string | null;
  originalUrl: string | null;
}

export function publicImageUrl(imageId: string): string {
  return `/api/public/images/${encodeURIComponent(imageId)}/content`;
}

/**
 * A resized copy of a public image (docs/decisions.md "Image derivatives"): what gallery tiles
 * show instead of the full photo, cached by browsers for a year under its immutable URL.
 */
export function publicDerivativeUrl(imageId: string, size: DerivativeSize): string {
  return `/api/public/images/${encodeURIComponent(imageId)}/derivatives/${size}`;
}

/**
 * Maps rows that passed PUBLIC_IMAGE_WHERE (in gallery order) to DTOs. The rows are re-checked
 * here as well: this function is the last step before data leaves the service, so a caller that
 * forgot the WHERE clause still cannot publish a pending variant. The cover is the original marked
 * isMain, else the first original; a staged image is never chosen (docs/system.md 1.5).
 */
export function toPublicImages(rows: readonly PublicImageRow[]): PublicImageDto[] {
  const visible = rows.filter(
    (row) => !row.isStyled || (row.reviewStatus === 'APPROVED' && row.styledFromId !== null),
  );
  const visibleOriginalIds = new Set(visible.filter((row) => !row.isStyled).map((row) => row.id));
  // A variant whose original is not in this list would link nowhere; it is left out.
  const publishable = visible.filter((row) => !row.isStyled || visibleOriginalIds.has(row.styledFromId ?? ''));
  const originals = publishable.filter((row) => !row.isStyled);
  const coverId = (originals.find((row) => row.isMain) ?? originals[0])?.id;
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
