import { ZSubmitStagingInput, ZSubmitStagingResult } from '@staging/contracts/staging';
import { submitStagingBatch } from '@staging/services/staging/submit-staging';
import { protectedProcedure } from '../../trpc';
import { stagingDepsOf } from './ai-deps';

/**
 * ai.submitStaging (mutation): per assignment {originalImageId, canonicalStyle, aiJobId,
 * disposition ENQUEUED | EXISTING | style_exists}, and the submission's id. Flag off → STAGING_UNAVAILABLE.
 */
export const submitStagingProcedure = protectedProcedure
  .input(ZSubmitStagingInput)
  .output(ZSubmitStagingResult)
  .mutation(({ ctx, input }) => submitStagingBatch(stagingDepsOf(ctx.deps), { actor: ctx.actor, assignments: input.assignments }));
