import { ZJobHistoryPage, ZListJobsInput } from '@staging/contracts/staging';
import { listJobHistory } from '@staging/services/staging/job-history';
import { protectedProcedure } from '../../trpc';
import { jobReadDepsOf } from './ai-deps';
import { listJobsQuery } from './list-jobs';

/**
 * ai.jobHistory (query): ai.listJobs with each job's review outcome, property title and images,
 * for the history of one property (propertyId) or of every property the caller manages.
 */
export const jobHistoryProcedure = protectedProcedure
  .input(ZListJobsInput)
  .output(ZJobHistoryPage)
  .query(({ ctx, input }) => listJobHistory(jobReadDepsOf(ctx.deps), listJobsQuery(ctx.actor, input)));
