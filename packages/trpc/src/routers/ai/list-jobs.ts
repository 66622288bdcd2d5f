import { z } from 'zod';
import { JOB_STATUSES } from '@staging/domain/staging-states';
import { ZEntityId } from '@staging/services/images/ids';
import type { Actor } from '@staging/services/access/property-access';
import { listStagingJobs, MAX_LIST_LIMIT, ZStagingJobPage } from '@staging/services/staging/get-jobs';
import { protectedProcedure } from '../../trpc';
import { jobReadDepsOf } from './ai-deps';

export const ZListJobsInput = z.strictObject({
  propertyId: ZEntityId.optional(),
  /** The jobs of one submission (its submitStaging answer's submissionId). */
  submissionId: ZEntityId.optional(),
  statuses: z.array(z.enum(JOB_STATUSES)).min(1).max(JOB_STATUSES.length).optional(),
  limit: z.number().int().min(1).max(MAX_LIST_LIMIT).default(20),
  // Cursors are base64url tokens handed out by the previous page.
  cursor: z.string().regex(/^[A-Za-z0-9_-]{1,200}$/).optional(),
});

/** The list query of `actor`: the given filters only (the use cases take no `undefined` keys). */
export function listJobsQuery(actor: Actor, input: z.infer<typeof ZListJobsInput>) {
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
