import { searchPublicProperties, ZPublicSearchInput, ZPublicSearchResult } from '@staging/services/public/search-public-properties';
import { publicProcedure } from '../../trpc';

/** public.search (query, anonymous): reads the psearch:property:<id> documents. */
export const searchPublicProcedure = publicProcedure
  .input(ZPublicSearchInput.optional())
  .output(ZPublicSearchResult)
  .query(({ ctx, input }) =>
    searchPublicProperties({ redis: ctx.deps.redis, queueSuffix: ctx.deps.queueSuffix }, input ?? {}),
  );
