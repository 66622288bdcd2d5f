import { z } from 'zod';
import type { Prisma } from '@staging/db/client';
import { selectColumns } from '@staging/db/select-columns';
import type { DerivativeSize } from '@staging/domain/image-derivatives';
import { REVIEW_STATUSES } from '@staging/domain/job-outcome';
import { ZRoomType } from '@staging/domain/room-types';
import { ZCanonicalStyle } from '@staging/domain/styles';

/**
 * Columns every image DTO (agent and public) is built from: what a tile needs to be laid out and
 * labelled. Each DTO adds its own on top.
 */
// prettier-ignore
export const IMAGE_TILE_SELECT = selectColumns([
  'id', 'width', 'height', 'displayOrder', 'isMain', 'isStyled', 'isPublic', 'styledFromId',
  'style', 'canonicalStyle', 'roomType', 'reviewStatus',
]) satisfies Prisma.PropertyImageSelect;

/** Columns every agent-facing image DTO is built from; select exactly these. */
export const AGENT_IMAGE_SELECT = {
  ...IMAGE_TILE_SELECT,
  // prettier-ignore
  ...selectColumns([
    'propertyId', 'contentType', 'bytes', 'fileName', 'reviewedByUserId', 'reviewedAt', 'aiJobId', 'createdAt',
  ]),
} satisfies Prisma.PropertyImageSelect;

export type AgentImageRow = Prisma.PropertyImageGetPayload<{ select: typeof AGENT_IMAGE_SELECT }>;

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

export function agentImageUrl(imageId: string): string {
  return `/api/property-images/${encodeURIComponent(imageId)}/content`;
}

export function agentDerivativeUrl(imageId: string, size: DerivativeSize): string {
  return `/api/property-images/${encodeURIComponent(imageId)}/derivatives/${size}`;
}

export function toAgentImageDto(row: AgentImageRow): AgentImageDto {
  return {
    id: row.id,
    propertyId: row.propertyId,
    url: agentImageUrl(row.id),
    thumbnailUrl: agentDerivativeUrl(row.id, 'thumb'),
    fileName: row.fileName,
    contentType: row.contentType,
    width: row.width,
    height: row.height,
    bytes: row.bytes,
    displayOrder: row.displayOrder,
    isMain: row.isMain,
    isStyled: row.isStyled,
    isPublic: row.isStyled ? null : row.isPublic,
    styledFromId: row.styledFromId,
    style: row.style,
    canonicalStyle: row.canonicalStyle,
    roomType: row.roomType,
    reviewStatus: row.reviewStatus,
    reviewedByUserId: row.reviewedByUserId,
    reviewedAt: row.reviewedAt?.toISOString() ?? null,
    aiJobId: row.aiJobId,
    createdAt: row.createdAt.toISOString(),
  };
}

/** Gallery order: explicit display order first, then upload time, then id for a stable tie-break. */
export const IMAGE_ORDER = [
  { displayOrder: 'asc' },
  { createdAt: 'asc' },
  { id: 'asc' },
] as const satisfies Prisma.PropertyImageOrderByWithRelationInput[];
