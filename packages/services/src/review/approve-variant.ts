import type { ApproveVariantResult } from '@staging/contracts/staging';
import type { Actor } from '../access/property-access';
import { AGENT_IMAGE_SELECT, toAgentImageDto } from '../images/image-dto';
import { requestSearchRebuild } from '../images/request-search-rebuild';
import { lockReviewableVariant } from './find-reviewable-variant';
import type { ReviewDeps } from './review-deps';

/**
 * Approves a PENDING_REVIEW variant (docs/system.md 3.2): reviewStatus APPROVED, reviewedByUserId,
 * reviewedAt and the APPROVED review event in one transaction, then the search rebuild and the
 * ai_room_staging.variant_approved event.
 *
 * Idempotent: the row lock makes concurrent calls run one after another, and the second sees
 * APPROVED and writes nothing, so there is exactly one APPROVED event (the partial unique index
 * property_image_review_events_one_approved_uidx is the last line of defence). A repeat call still
 * requests the search rebuild, which heals a rebuild lost while the queue store was down.
 */
export async function approveStagedVariant(
  deps: ReviewDeps,
  input: { actor: Actor; imageId: string },
): Promise<ApproveVariantResult> {
  const now = deps.clock.now();
  const { variant, changed } = await deps.db.$transaction(async (tx) => {
    const locked = await lockReviewableVariant(tx, input.actor, input.imageId);
    if (locked.reviewStatus === 'APPROVED') return { variant: locked, changed: false };
    await tx.propertyImage.update({
      where: { id: locked.id },
      data: { reviewStatus: 'APPROVED', reviewedByUserId: input.actor.id, reviewedAt: now, updatedAt: now },
      select: { id: true },
    });
    await tx.propertyImageReviewEvent.create({
      data: { imageId: locked.id, aiJobId: locked.aiJobId, actorUserId: input.actor.id, kind: 'APPROVED', createdAt: now },
      select: { id: true },
    });
    return { variant: locked, changed: true };
  });
  if (changed) {
    deps.logger.info(
      {
        event: 'ai_room_staging.variant_approved',
        imageId: variant.id,
        jobId: variant.aiJobId,
        propertyId: variant.propertyId,
        actorUserId: input.actor.id,
      },
      'ai_room_staging.variant_approved',
    );
  }
  await requestSearchRebuild(deps, variant.propertyId);
  const row = await deps.db.propertyImage.findUniqueOrThrow({ where: { id: variant.id }, select: AGENT_IMAGE_SELECT });
  return { image: toAgentImageDto(row), changed };
}
