import { z } from 'zod';
import { MAX_SPEND_MONTHS, summarizeSpend, ZSpendSummary } from '@staging/services/staging/spend';
import { protectedProcedure } from '../../trpc';
import { stagingDepsOf } from './ai-deps';

export const ZSpendSummaryInput = z.strictObject({ months: z.number().int().min(1).max(MAX_SPEND_MONTHS).default(6) });

/** ai.spendSummary (query): estimated staging spend per month, with each month's top properties (all properties for an admin). */
export const spendSummaryProcedure = protectedProcedure
  .input(ZSpendSummaryInput)
  .output(ZSpendSummary)
  .query(({ ctx, input }) => summarizeSpend(stagingDepsOf(ctx.deps), { actor: ctx.actor, months: input.months }));
