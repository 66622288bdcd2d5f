import type { RejectVariantResult } from '@staging/contracts/staging';
import type { Actor } from '../access/property-access';
import { requestSearchRebuild } from '../images/request-search-rebuild';
import { lockReviewableVariant } from './find-reviewable-variant';
import type { ReviewDeps } from './review-deps';

/**
 * Rejects a staged variant (docs/system.md 3.2): in one transaction the REJECTED review event is written
 * first, then the image row is deleted. The deletion trigger of migration 0010 writes the
 * STAGED_IMAGE_DELETED storage_deletion_outbox row in the same transaction, so it is not written
 * here (a second row would delete the object twice). The event has no foreign key to the image,
 * so it survives the row. The freed style can be generated again (ENQUEUED).
 *
 * An APPROVED variant may be rejected too: it is the only way to take a published staged image
 * down, since DELETE refuses staged images (docs/decisions/api.md "Review actions").
 */
export async function rejectStagedVariant(
  deps: ReviewDeps,
  input: { actor: Actor; imageId: string; reason?: string | undefined },
): Promise<RejectVariantResult> {
  const now = deps.clock.now();
  const reason = input.reason === undefined || input.reason.length === 0 ? null : input.reason;
  const variant = await deps.db.$transaction(async (tx) => {
    const locked = await lockReviewableVariant(tx, input.actor, input.imageId);
    await tx.propertyImageReviewEvent.create({
      data: { imageId: locked.id, aiJobId: locked.aiJobId, actorUserId: input.actor.id, kind: 'REJECTED', reason, createdAt: now },
      select: { id: true },
    });
    await tx.propertyImage.delete({ where: { id: locked.id }, select: { id: true } });
    return locked;
  });
  deps.logger.info(
    {
      event: 'ai_room_staging.variant_rejected',
      imageId: variant.id,
      jobId: variant.aiJobId,
      propertyId: variant.propertyId,
      actorUserId: input.actor.id,
      previousReviewStatus: variant.reviewStatus,
      hasReason: reason !== null,
    },
    'ai_room_staging.variant_rejected',
  );
  await requestSearchRebuild(deps, variant.propertyId);
  return { imageId: variant.id, aiJobId: variant.aiJobId, previousReviewStatus: variant.reviewStatus };
}
