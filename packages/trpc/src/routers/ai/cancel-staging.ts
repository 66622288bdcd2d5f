import { z } from 'zod';
import { ZEntityId } from '@staging/services/images/ids';
import { cancelStaging } from '@staging/services/staging/cancel-staging';
import { ZStagingJob } from '@staging/services/staging/get-jobs';
import { protectedProcedure } from '../../trpc';
import { stagingDepsOf } from './ai-deps';

export const ZJobIdInput = z.strictObject({ aiJobId: ZEntityId });

/** ai.cancelStaging (mutation): the job after the cancel request (idempotent). */
export const cancelStagingProcedure = protectedProcedure
  .input(ZJobIdInput)
  .output(ZStagingJob)
  .mutation(({ ctx, input }) => cancelStaging(stagingDepsOf(ctx.deps), { actor: ctx.actor, aiJobId: input.aiJobId }));
