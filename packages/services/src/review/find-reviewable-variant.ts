import { isWellFormedId } from '@staging/contracts/ids';
import type { DbTransaction } from '@staging/db/client';
import { AppError, ErrorCode } from '@staging/domain/errors';
import type { ReviewStatus } from '@staging/domain/job-outcome';
import type { Actor } from '../access/property-access';

export const VARIANT_NOT_FOUND = 'Staged image not found';

export interface ReviewableVariant {
  id: string;
  propertyId: string;
  aiJobId: string | null;
  reviewStatus: ReviewStatus;
}

/**
 * Locks and returns the staged image `imageId` if `actor` is an owning or assigned agent of its
 * property (review is theirs alone; admins and unrelated agents get NOT_FOUND, docs/system.md 5.4). An
 * original, a missing image and a foreign one all give the same NOT_FOUND, so the answer reveals
 * nothing about which IDs exist. FOR UPDATE serializes approve/reject of one image.
 */
export async function lockReviewableVariant(
  tx: DbTransaction,
  actor: Actor,
  imageId: string,
): Promise<ReviewableVariant> {
  if (!isWellFormedId(imageId)) throw new AppError(ErrorCode.NOT_FOUND, VARIANT_NOT_FOUND);
  const [row] = await tx.$queryRaw<ReviewableVariant[]>`
    SELECT i."id", i."propertyId", i."aiJobId", i."reviewStatus"::text AS "reviewStatus"
    FROM "property_images" i JOIN "properties" p ON p."id" = i."propertyId"
    WHERE i."id" = ${imageId} AND i."isStyled"
      AND (p."ownerAgentId" = ${actor.id}
        OR EXISTS (SELECT 1 FROM "property_agents" pa WHERE pa."propertyId" = p."id" AND pa."userId" = ${actor.id}))
    FOR UPDATE OF i`;
  if (row === undefined) throw new AppError(ErrorCode.NOT_FOUND, VARIANT_NOT_FOUND);
  return row;
}
