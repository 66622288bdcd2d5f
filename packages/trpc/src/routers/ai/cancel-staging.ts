import { ZCancelSubmissionInput, ZCancelSubmissionResult, ZJobIdInput, ZStagingJob } from '@staging/contracts/staging';
import { cancelStaging, cancelSubmission } from '@staging/services/staging/cancel-staging';
import { protectedProcedure } from '../../trpc';
import { stagingDepsOf } from './ai-deps';

/** ai.cancelStaging (mutation): the job after the cancel request (idempotent). */
export const cancelStagingProcedure = protectedProcedure
  .input(ZJobIdInput)
  .output(ZStagingJob)
  .mutation(({ ctx, input }) => cancelStaging(stagingDepsOf(ctx.deps), { actor: ctx.actor, aiJobId: input.aiJobId }));

/** ai.cancelSubmission (mutation): cancels what is still open of one submission; the jobs it asked to cancel. */
export const cancelSubmissionProcedure = protectedProcedure
  .input(ZCancelSubmissionInput)
  .output(ZCancelSubmissionResult)
  .mutation(async ({ ctx, input }) => ({
    items: await cancelSubmission(stagingDepsOf(ctx.deps), { actor: ctx.actor, submissionId: input.submissionId }),
  }));
