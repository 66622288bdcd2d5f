import { z } from 'zod';
import { PUBLIC_SEARCH_LIMITS } from '@staging/domain/public-search';
import { ZEntityId } from './ids';

/** Inputs and answers of the `public` router, what anonymous visitors read. */

/**
 * Disclosure shown on every staged image anonymous visitors see (docs/system.md 3.2). The text is part
 * of the contract with clients and the search document; it is not localized.
 */
export const STAGED_DISCLOSURE_LABEL = 'AI · Virtually staged';

export const ZPublicImage = z.strictObject({
  id: z.string(),
  /** Anonymous content route that serves only originals and APPROVED variants. */
  url: z.string(),
  width: z.int(),
  height: z.int(),
  displayOrder: z.int(),
  isStyled: z.boolean(),
  /** True for exactly one public original per property when it has any; never for a staged image. */
  isCover: z.boolean(),
  roomType: z.string().nullable(),
  style: z.string().nullable(),
  /** STAGED_DISCLOSURE_LABEL on staged images, null on originals. */
  label: z.literal(STAGED_DISCLOSURE_LABEL).nullable(),
  /** The unaltered photo a staged image derives from (null on originals). */
  originalImageId: z.string().nullable(),
  originalUrl: z.string().nullable(),
});
export type PublicImageDto = z.infer<typeof ZPublicImage>;

export const ZPublicProperty = z.strictObject({
  id: z.string(),
  title: z.string(),
  address: z.string(),
  city: z.string(),
  description: z.string().nullable(),
  bedrooms: z.int(),
  bathrooms: z.int(),
  features: z.array(z.string()),
  /** Always an original (or null when the listing has no photo). */
  coverImage: ZPublicImage.nullable(),
  images: z.array(ZPublicImage),
});
export type PublicPropertyDto = z.infer<typeof ZPublicProperty>;

export const ZGetPublicPropertyInput = z.strictObject({ propertyId: ZEntityId });

export const ZPublicSearchInput = z.strictObject({
  q: z.string().max(PUBLIC_SEARCH_LIMITS.queryMaxLength).default(''),
  limit: z.number().int().min(1).max(PUBLIC_SEARCH_LIMITS.maxLimit).default(PUBLIC_SEARCH_LIMITS.defaultLimit),
  /** Only listings in this city (accents and case ignored). */
  city: z.string().max(PUBLIC_SEARCH_LIMITS.cityMaxLength).optional(),
});

export type TPublicSearchInput = z.input<typeof ZPublicSearchInput>;

const ZPublicSearchHit = z.strictObject({
  id: z.string(),
  title: z.string(),
  city: z.string(),
  address: z.string(),
  bedrooms: z.number(),
  bathrooms: z.number(),
  coverImage: ZPublicImage.nullable(),
  images: z.array(ZPublicImage).readonly(),
});
export type PublicSearchHit = z.infer<typeof ZPublicSearchHit>;

export const ZPublicSearchResult = z.strictObject({
  query: z.string(),
  /** Matches counted up to PUBLIC_SEARCH_LIMITS.totalCap. */
  total: z.int().nonnegative(),
  /** True when more listings match than `total` says (the count stopped at the cap). */
  totalIsLowerBound: z.boolean(),
  results: z.array(ZPublicSearchHit),
});
export type PublicSearchResult = z.infer<typeof ZPublicSearchResult>;
