import { z } from 'zod';
import { ZRoomType } from '@staging/domain/room-types';
import { MAX_SUBMITTED_STYLE_LENGTH } from '@staging/domain/styles';
import { ZEntityId } from '@staging/services/images/ids';
import { MAX_ASSIGNMENTS_PER_SUBMISSION, submitStaging } from '@staging/services/staging/submit-staging';
import { protectedProcedure } from '../../trpc';
import { stagingDepsOf } from './ai-deps';

export const ZSubmitStagingRequest = z.strictObject({
  assignments: z
    .array(
      z.strictObject({
        originalImageId: ZEntityId,
        roomType: ZRoomType,
        style: z.string().max(MAX_SUBMITTED_STYLE_LENGTH),
      }),
    )
    .min(1)
    .max(MAX_ASSIGNMENTS_PER_SUBMISSION),
});

/**
 * ai.submitStaging (mutation): per assignment {originalImageId, canonicalStyle, aiJobId,
 * disposition ENQUEUED | EXISTING | style_exists}. Flag off → STAGING_UNAVAILABLE.
 */
export const submitStagingProcedure = protectedProcedure
  .input(ZSubmitStagingRequest)
  .mutation(async ({ ctx, input }) => ({
    items: await submitStaging(stagingDepsOf(ctx.deps), { actor: ctx.actor, assignments: input.assignments }),
  }));
