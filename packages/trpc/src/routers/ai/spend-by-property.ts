import { ZSpendByPropertyInput, ZSpendByPropertyPage } from '@staging/contracts/staging';
import { listSpendByProperty } from '@staging/services/staging/spend';
import { protectedProcedure } from '../../trpc';
import { stagingDepsOf } from './ai-deps';

/** ai.spendByProperty (query): one month's estimated spend of every property the caller may manage, largest first, paginated. */
export const spendByPropertyProcedure = protectedProcedure
  .input(ZSpendByPropertyInput)
  .output(ZSpendByPropertyPage)
  .query(({ ctx, input }) => listSpendByProperty(stagingDepsOf(ctx.deps), { actor: ctx.actor, ...input }));
