import type { Prisma } from '@staging/db/client';
import type { DerivativeSize } from '@staging/domain/image-derivatives';

/** Columns every agent-facing image DTO is built from; select exactly these. */
export const AGENT_IMAGE_SELECT = {
  id: true,
  propertyId: true,
  contentType: true,
  width: true,
  height: true,
  bytes: true,
  fileName: true,
  displayOrder: true,
  isMain: true,
  isStyled: true,
  styledFromId: true,
  style: true,
  canonicalStyle: true,
  roomType: true,
  reviewStatus: true,
  reviewedByUserId: true,
  reviewedAt: true,
  aiJobId: true,
  createdAt: true,
} as const satisfies Prisma.PropertyImageSelect;

export type AgentImageRow = Prisma.PropertyImageGetPayload<{ select: typeof AGENT_IMAGE_SELECT }>;

/**
 * An image as the owning/assigned agents (and admins) see it, pending variants included. Plain
 * JSON: dates are ISO 8601 strings so any client language can decode it without a transformer.
 */
export interface AgentImageDto {
  id: string;
  propertyId: string;
  /** Authenticated content route; never a signed storage URL. */
  url: string;
  /** Authenticated thumbnail (480 px, metadata stripped) for tiles and lists. */
  thumbnailUrl: string;
  /** The uploaded file's name (originals uploaded since it is kept), else null. */
  fileName: string | null;
  contentType: string;
  width: number;
  height: number;
  bytes: number;
  displayOrder: number;
  isMain: boolean;
  isStyled: boolean;
  styledFromId: string | null;
  style: string | null;
  canonicalStyle: string | null;
  roomType: string | null;
  reviewStatus: 'PENDING_REVIEW' | 'APPROVED' | null;
  reviewedByUserId: string | null;
  reviewedAt: string | null;
  aiJobId: string | null;
  createdAt: string;
}

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
