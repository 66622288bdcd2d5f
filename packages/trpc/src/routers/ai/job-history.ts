import { listJobHistory } from '@staging/services/staging/job-history';
import { protectedProcedure } from '../../trpc';
import { stagingDepsOf } from './ai-deps';
import { ZListJobsInput } from './list-jobs';

/**
 * ai.jobHistory (query): ai.listJobs with each job's review outcome, property title and images,
 * for the history of one property (propertyId) or of every property the caller manages.
 */
export const jobHistoryProcedure = protectedProcedure
  .input(ZListJobsInput)
  .query(({ ctx, input }) =>
    listJobHistory(stagingDepsOf(ctx.deps), {
      actor: ctx.actor,
      limit: input.limit,
      ...(input.propertyId === undefined ? {} : { propertyId: input.propertyId }),
      ...(input.statuses === undefined ? {} : { statuses: input.statuses }),
      ...(input.cursor === undefined ? {} : { cursor: input.cursor }),
    }),
  );
