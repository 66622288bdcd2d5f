import { z } from 'zod';
import { ZEntityId } from '@staging/services/images/ids';
import { cancelStaging } from '@staging/services/staging/cancel-staging';
import { protectedProcedure, rateLimit } from '../../trpc';
import { AI_RATE_LIMIT_BUCKET, AI_RATE_LIMITS, stagingDepsOf } from './ai-deps';

export const ZJobIdInput = z.strictObject({ aiJobId: ZEntityId });

/** ai.cancelStaging (mutation): the job after the cancel request (idempotent). */
export const cancelStagingProcedure = protectedProcedure
  .use(rateLimit('cancelStaging', AI_RATE_LIMITS.cancelStaging, { bucket: AI_RATE_LIMIT_BUCKET }))
  .input(ZJobIdInput)
  .mutation(({ ctx, input }) => cancelStaging(stagingDepsOf(ctx.deps), { actor: ctx.actor, aiJobId: input.aiJobId }));
