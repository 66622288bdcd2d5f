import { rejectStagedVariant, ZRejectVariantInput } from '@staging/services/review/reject-variant';
import { protectedProcedure, rateLimit } from '../../trpc';
import { AI_RATE_LIMIT_BUCKET, AI_RATE_LIMITS, reviewDepsOf } from './ai-deps';

/**
 * ai.rejectStagedVariant (mutation, optional reason): REJECTED event, then the row is deleted in
 * the same transaction; the deletion trigger schedules the object (STAGED_IMAGE_DELETED).
 */
export const rejectStagedVariantProcedure = protectedProcedure
  .use(rateLimit('rejectStagedVariant', AI_RATE_LIMITS.rejectStagedVariant, { bucket: AI_RATE_LIMIT_BUCKET }))
  .input(ZRejectVariantInput)
  .mutation(({ ctx, input }) =>
    rejectStagedVariant(reviewDepsOf(ctx.deps), { actor: ctx.actor, imageId: input.imageId, reason: input.reason }),
  );
