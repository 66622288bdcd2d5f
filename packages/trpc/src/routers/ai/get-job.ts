import { ZJobIdInput, ZStagingJob } from '@staging/contracts/staging';
import { getStagingJob } from '@staging/services/staging/get-jobs';
import { protectedProcedure } from '../../trpc';
import { jobReadDepsOf } from './ai-deps';

/** ai.getJob (query): status, phase, errorCode, attempts, timings, cost estimate. */
export const getJobProcedure = protectedProcedure
  .input(ZJobIdInput)
  .output(ZStagingJob)
  .query(({ ctx, input }) => getStagingJob(jobReadDepsOf(ctx.deps), { actor: ctx.actor, aiJobId: input.aiJobId }));
