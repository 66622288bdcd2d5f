import { ZPendingReviewCount } from '@staging/contracts/staging';
import { countPendingReview } from '@staging/services/review/list-review-variants';
import { protectedProcedure } from '../../trpc';

/** ai.pendingReviewCount (query): variants waiting for the caller's review, counted up to a cap, for the navigation badge. */
export const pendingReviewCountProcedure = protectedProcedure.output(ZPendingReviewCount).query(({ ctx }) => countPendingReview(ctx.deps.db, ctx.actor));
