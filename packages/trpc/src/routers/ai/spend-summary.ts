import { ZSpendSummary, ZSpendSummaryInput } from '@staging/contracts/staging';
import { summarizeSpend } from '@staging/services/staging/spend';
import { protectedProcedure } from '../../trpc';
import { stagingDepsOf } from './ai-deps';

/** ai.spendSummary (query): estimated staging spend per month, with each month's top properties (all properties for an admin). */
export const spendSummaryProcedure = protectedProcedure
  .input(ZSpendSummaryInput)
  .output(ZSpendSummary)
  .query(({ ctx, input }) => summarizeSpend(stagingDepsOf(ctx.deps), { actor: ctx.actor, months: input.months }));
