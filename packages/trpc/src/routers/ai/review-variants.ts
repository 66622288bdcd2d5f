import { ZListReviewVariantsInput, ZReviewVariantPage } from '@staging/contracts/staging';
import { listReviewVariants } from '@staging/services/review/list-review-variants';
import { protectedProcedure } from '../../trpc';

/** ai.reviewVariants (query): staged variants waiting for review, or published, of the caller's own and assigned properties, newest first, paginated. */
export const reviewVariantsProcedure = protectedProcedure
  .input(ZListReviewVariantsInput)
  .output(ZReviewVariantPage)
  .query(({ ctx, input }) => listReviewVariants(ctx.deps.db, ctx.actor, input));
