import { z } from 'zod';
import { REVIEW_STATUSES } from '@staging/domain/job-outcome';
import { ZRoomType } from '@staging/domain/room-types';
import { ZCanonicalStyle } from '@staging/domain/styles';
import { ZEntityId } from './ids';

/** Inputs and answers of the `property` router: the agent's properties, their images and public page. */

/**
 * An image as the owning/assigned agents (and admins) see it, pending variants included. Plain
 * JSON: dates are ISO 8601 strings so any client language can decode it without a transformer.
 */
export const ZAgentImage = z.strictObject({
  id: z.string(),
  propertyId: z.string(),
  /** Authenticated content route; never a signed storage URL. */
  url: z.string(),
  /** Authenticated thumbnail (480 px, metadata stripped) for tiles and lists. */
  thumbnailUrl: z.string(),
  /** The uploaded file's name (originals uploaded since it is kept), else null. */
  fileName: z.string().nullable(),
  contentType: z.string(),
  width: z.int(),
  height: z.int(),
  bytes: z.int(),
  displayOrder: z.int(),
  isMain: z.boolean(),
  isStyled: z.boolean(),
  /**
   * Of an original: whether the public page shows it. Null on a staged image, which has no switch
   * of its own: it is public while APPROVED and its original is public.
   */
  isPublic: z.boolean().nullable(),
  styledFromId: z.string().nullable(),
  style: z.string().nullable(),
  canonicalStyle: ZCanonicalStyle.nullable(),
  roomType: ZRoomType.nullable(),
  reviewStatus: z.enum(REVIEW_STATUSES).nullable(),
  reviewedByUserId: z.string().nullable(),
  reviewedAt: z.iso.datetime().nullable(),
  aiJobId: z.string().nullable(),
  createdAt: z.iso.datetime(),
});
export type AgentImageDto = z.infer<typeof ZAgentImage>;

/** How the caller relates to a property; ADMIN when support access is the only link. */
const PROPERTY_RELATIONS = ['OWNER', 'ASSIGNED', 'ADMIN'] as const;
export type PropertyRelation = (typeof PROPERTY_RELATIONS)[number];

const ZReviewSummary = z.strictObject({
  originals: z.int().nonnegative(),
  pendingReview: z.int().nonnegative(),
  approved: z.int().nonnegative(),
});
export type ReviewSummary = z.infer<typeof ZReviewSummary>;

/** What a list row and the property page both show. */
const ZPropertyHeader = z.strictObject({
  id: z.string(),
  title: z.string(),
  address: z.string(),
  city: z.string(),
  relation: z.enum(PROPERTY_RELATIONS),
  review: ZReviewSummary,
  createdAt: z.iso.datetime(),
});
export type PropertyHeader = z.infer<typeof ZPropertyHeader>;

const ZAgentPropertySummary = z.strictObject({ ...ZPropertyHeader.shape, coverImage: ZAgentImage.nullable() });

export const ZAgentProperty = z.strictObject({
  ...ZPropertyHeader.shape,
  description: z.string().nullable(),
  bedrooms: z.int(),
  bathrooms: z.int(),
  features: z.array(z.string()),
  ownerAgentId: z.string(),
  /** Whether an original uploaded from now on is shown on the public page (isPublic) at once. */
  newImagesPublic: z.boolean(),
  /** Originals and staged variants (pending and approved), in gallery order. */
  images: z.array(ZAgentImage),
});
export type AgentPropertyDto = z.infer<typeof ZAgentProperty>;

export const PROPERTY_LIST_LIMITS = { defaultLimit: 50, maxLimit: 100 } as const;

export const ZListPropertiesInput = z
  .strictObject({
    limit: z.number().int().min(1).max(PROPERTY_LIST_LIMITS.maxLimit).optional(),
    /** The last property ID of the previous page. */
    cursor: ZEntityId.optional(),
  })
  .optional();
export type ListPropertiesInput = z.infer<typeof ZListPropertiesInput>;

export const ZGetPropertyInput = z.strictObject({ propertyId: ZEntityId });

export const ZAgentPropertyPage = z.strictObject({ items: z.array(ZAgentPropertySummary), nextCursor: z.string().nullable() });
export type AgentPropertyPage = z.infer<typeof ZAgentPropertyPage>;

/** imageId null: no chosen cover, the listing shows its first public photo (as before any choice). */
export const ZSetCoverInput = z.strictObject({ propertyId: ZEntityId, imageId: ZEntityId.nullable() });

export type TSetCoverInput = z.infer<typeof ZSetCoverInput>;

export const ZSetCoverResult = z.strictObject({
  /** The cover visitors see now: the chosen photo, or the first public one; null when none is public. */
  coverImageId: z.string().nullable(),
});
export type SetCoverResult = z.infer<typeof ZSetCoverResult>;

export const ZSetImagePublicInput = z.strictObject({ imageId: ZEntityId, isPublic: z.boolean() });

export type TSetImagePublicInput = z.infer<typeof ZSetImagePublicInput>;

export const ZSetNewImagesPublicInput = z.strictObject({ propertyId: ZEntityId, newImagesPublic: z.boolean() });

export type TSetNewImagesPublicInput = z.infer<typeof ZSetNewImagesPublicInput>;
