import type { AgentImageDto } from '@staging/contracts/property';
import type { Prisma } from '@staging/db/client';
import { selectColumns } from '@staging/db/select-columns';
import type { DerivativeSize } from '@staging/domain/image-derivatives';

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
