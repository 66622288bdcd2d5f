import { getStagingJob, ZStagingJob } from '@staging/services/staging/get-jobs';
import { protectedProcedure } from '../../trpc';
import { jobReadDepsOf } from './ai-deps';
import { ZJobIdInput } from './cancel-staging';

/** ai.getJob (query): status, phase, errorCode, attempts, timings, cost estimate. */
export const getJobProcedure = protectedProcedure
  .input(ZJobIdInput)
  .output(ZStagingJob)
  .query(({ ctx, input }) => getStagingJob(jobReadDepsOf(ctx.deps), { actor: ctx.actor, aiJobId: input.aiJobId }));
