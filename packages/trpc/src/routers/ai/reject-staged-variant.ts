import { ZRejectVariantInput, ZRejectVariantResult } from '@staging/contracts/staging';
import { rejectStagedVariant } from '@staging/services/review/reject-variant';
import { protectedProcedure } from '../../trpc';
import { reviewDepsOf } from './ai-deps';

/**
 * ai.rejectStagedVariant (mutation, optional reason): REJECTED event, then the row is deleted in
 * the same transaction; the deletion trigger schedules the object (STAGED_IMAGE_DELETED).
 */
export const rejectStagedVariantProcedure = protectedProcedure
  .input(ZRejectVariantInput)
  .output(ZRejectVariantResult)
  .mutation(({ ctx, input }) =>
    rejectStagedVariant(reviewDepsOf(ctx.deps), { actor: ctx.actor, imageId: input.imageId, reason: input.reason }),
  );
