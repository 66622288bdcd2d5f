import { ZListJobsInput, ZStagingJobPage } from '@staging/contracts/staging';
import type { ListJobsInput } from '@staging/contracts/staging';
import type { Actor } from '@staging/services/access/property-access';
import { listStagingJobs } from '@staging/services/staging/get-jobs';
import { protectedProcedure } from '../../trpc';
import { jobReadDepsOf } from './ai-deps';

/** The list query of `actor`: the given filters only (the use cases take no `undefined` keys). */
export function listJobsQuery(actor: Actor, input: ListJobsInput) {
  return {
    actor,
    limit: input.limit,
    ...(input.propertyId === undefined ? {} : { propertyId: input.propertyId }),
    ...(input.submissionId === undefined ? {} : { submissionId: input.submissionId }),
    ...(input.statuses === undefined ? {} : { statuses: input.statuses }),
    ...(input.cursor === undefined ? {} : { cursor: input.cursor }),
  };
}

/** ai.listJobs (query): the caller's staging jobs, newest first, keyset-paginated. */
export const listJobsProcedure = protectedProcedure
  .input(ZListJobsInput)
  .output(ZStagingJobPage)
  .query(({ ctx, input }) => listStagingJobs(jobReadDepsOf(ctx.deps), listJobsQuery(ctx.actor, input)));
