import { approveStagedVariant, ZApproveVariantInput } from '@staging/services/review/approve-variant';
import { protectedProcedure, rateLimit } from '../../trpc';
import { AI_RATE_LIMIT_BUCKET, AI_RATE_LIMITS, reviewDepsOf } from './ai-deps';

/**
 * ai.approveStagedVariant (mutation): owning/assigned agent only (others NOT_FOUND); idempotent,
 * exactly one APPROVED event per variant.
 */
export const approveStagedVariantProcedure = protectedProcedure
  .use(rateLimit('approveStagedVariant', AI_RATE_LIMITS.approveStagedVariant, { bucket: AI_RATE_LIMIT_BUCKET }))
  .input(ZApproveVariantInput)
  .mutation(({ ctx, input }) => approveStagedVariant(reviewDepsOf(ctx.deps), { actor: ctx.actor, imageId: input.imageId }));
