import { ZStartLineSummary } from '@staging/contracts/staging';
import { summarizeStartLine } from '@staging/services/staging/start-line-summary';
import { protectedProcedure } from '../../trpc';
import { jobReadDepsOf } from './ai-deps';

/** ai.startLine (query): the caller's photos waiting for a start slot and the first one's place, for the navigation badge. */
export const startLineProcedure = protectedProcedure.output(ZStartLineSummary).query(({ ctx }) => summarizeStartLine(jobReadDepsOf(ctx.deps), ctx.actor));
