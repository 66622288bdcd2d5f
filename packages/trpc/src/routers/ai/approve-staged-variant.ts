import { ZApproveVariantInput, ZApproveVariantResult } from '@staging/contracts/staging';
import { approveStagedVariant } from '@staging/services/review/approve-variant';
import { protectedProcedure } from '../../trpc';
import { reviewDepsOf } from './ai-deps';

/**
 * ai.approveStagedVariant (mutation): owning/assigned agent only (others NOT_FOUND); idempotent,
 * exactly one APPROVED event per variant.
 */
export const approveStagedVariantProcedure = protectedProcedure
  .input(ZApproveVariantInput)
  .output(ZApproveVariantResult)
  .mutation(({ ctx, input }) => approveStagedVariant(reviewDepsOf(ctx.deps), { actor: ctx.actor, imageId: input.imageId }));
