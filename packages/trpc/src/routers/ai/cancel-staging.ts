import { z } from 'zod';
import { ZEntityId } from '@staging/services/images/ids';
import { cancelStaging, cancelSubmission } from '@staging/services/staging/cancel-staging';
import { ZStagingJob } from '@staging/services/staging/get-jobs';
import { protectedProcedure } from '../../trpc';
import { stagingDepsOf } from './ai-deps';

export const ZJobIdInput = z.strictObject({ aiJobId: ZEntityId });

/** ai.cancelStaging (mutation): the job after the cancel request (idempotent). */
export const cancelStagingProcedure = protectedProcedure
  .input(ZJobIdInput)
  .output(ZStagingJob)
  .mutation(({ ctx, input }) => cancelStaging(stagingDepsOf(ctx.deps), { actor: ctx.actor, aiJobId: input.aiJobId }));

/** ai.cancelSubmission (mutation): cancels what is still open of one submission; the jobs it asked to cancel. */
export const cancelSubmissionProcedure = protectedProcedure
  .input(z.strictObject({ submissionId: ZEntityId }))
  .output(z.strictObject({ items: z.array(ZStagingJob) }))
  .mutation(async ({ ctx, input }) => ({
    items: await cancelSubmission(stagingDepsOf(ctx.deps), { actor: ctx.actor, submissionId: input.submissionId }),
  }));
