import { ZSetCoverInput, ZSetCoverResult } from '@staging/contracts/property';
import { setListingCover } from '@staging/services/public-page/set-cover';
import { protectedProcedure } from '../../trpc';
import { publicPageDepsOf } from './public-page-deps';

/** property.setCover (mutation): the listing's cover among its public originals, or none chosen. */
export const setCoverProcedure = protectedProcedure
  .input(ZSetCoverInput)
  .output(ZSetCoverResult)
  .mutation(({ ctx, input }) => setListingCover(publicPageDepsOf(ctx.deps), { actor: ctx.actor, ...input }));
